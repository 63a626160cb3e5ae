"""jaxsess.keras.preprocessing.image: errors, warnings and edge cases (the values against
tf_keras are in the corpus, ``v70_image_*``)."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from jaxsess import keras, nn, placeholder
from jaxsess.keras.preprocessing import image

ImageDataGenerator = image.ImageDataGenerator


def _write_tree(root: Path, counts: dict[str, int], size: tuple[int, int] = (5, 4)) -> None:
    rng = np.random.RandomState(0)
    for cls, n in counts.items():
        (root / cls).mkdir()
        for i in range(n):
            image.save_img(str(root / cls / f"{i}.png"), rng.rand(*size, 3))


def test_exports_and_aliases() -> None:
    assert keras.utils.load_img is image.load_img
    assert keras.utils.img_to_array is image.img_to_array
    assert keras.utils.array_to_img is image.array_to_img
    assert keras.utils.save_img is image.save_img
    it = ImageDataGenerator().flow(np.zeros((3, 2, 2, 1)), batch_size=2)
    assert isinstance(it, keras.utils.Sequence) and isinstance(it, image.Iterator)
    assert isinstance(it, image.NumpyArrayIterator)


def test_array_to_img_errors() -> None:
    with pytest.raises(ValueError, match="rank 3"):
        image.array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="Invalid data_format"):
        image.array_to_img(np.zeros((2, 2, 3)), data_format="channels_middle")
    with pytest.raises(ValueError, match="Unsupported channel number: 2"):
        image.array_to_img(np.zeros((2, 2, 2)))


def test_img_to_array_shapes_and_errors() -> None:
    img = Image.fromarray(np.arange(6, dtype=np.uint8).reshape(2, 3), "L")
    assert image.img_to_array(img).shape == (2, 3, 1)
    assert image.img_to_array(img, data_format="channels_first").shape == (1, 2, 3)
    assert image.img_to_array(img).dtype == np.float32
    assert image.img_to_array(img, dtype="uint8").dtype == np.uint8
    with pytest.raises(ValueError, match="Unknown data_format"):
        image.img_to_array(img, data_format="nchw")
    with pytest.raises(ValueError, match="Unsupported image shape"):
        image.img_to_array(np.zeros(4))


def test_array_round_trip_without_scaling() -> None:
    x = np.random.RandomState(1).randint(0, 256, size=(4, 5, 3)).astype(np.float32)
    np.testing.assert_array_equal(image.img_to_array(image.array_to_img(x, scale=False)), x)
    scaled = image.img_to_array(image.array_to_img(x))
    assert scaled.min() == 0 and scaled.max() == 255


def test_load_img_errors_and_warnings(tmp_path: Path) -> None:
    path = str(tmp_path / "a.png")
    image.save_img(path, np.random.rand(4, 6, 3))
    with pytest.raises(ValueError, match="color_mode must be"):
        image.load_img(path, color_mode="cmyk")
    with pytest.raises(ValueError, match="Invalid interpolation method area"):
        image.load_img(path, target_size=(2, 2), interpolation="area")
    with pytest.raises(TypeError, match="path should be path-like or io.BytesIO"):
        image.load_img(3)
    with pytest.warns(UserWarning, match="grayscale is deprecated"):
        assert image.load_img(path, grayscale=True).mode == "L"
    # an unknown interpolation is not an error when nothing is resized
    assert image.load_img(path, target_size=(4, 6), interpolation="area").size == (6, 4)
    assert image.load_img(Path(path), target_size=(3, 2)).size == (2, 3)
    assert image.load_img(path.encode()).mode == "RGB"


def test_save_img_rgba_as_jpeg_warns(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with pytest.warns(UserWarning, match="does not support RGBA"):
        image.save_img(buf, np.random.rand(3, 3, 4), file_format="jpeg")
    buf.seek(0)
    assert image.load_img(buf, color_mode="rgba").size == (3, 3)


def test_apply_affine_transform_errors_and_identity() -> None:
    x = np.random.rand(2, 5, 5)
    assert image.apply_affine_transform(x) is x
    with pytest.raises(ValueError, match="must be distinct"):
        image.apply_affine_transform(x, theta=10, row_axis=1, col_axis=1)
    with pytest.raises(ValueError, match="Invalid axis"):
        image.apply_affine_transform(x, theta=10, row_axis=1, col_axis=3)
    with pytest.raises(ValueError, match="multi-channel 2D images"):
        image.apply_affine_transform(np.zeros((5, 5)), theta=10, row_axis=0, col_axis=1, channel_axis=2)
    with pytest.raises(ValueError, match="Channels are allowed"):
        image.apply_affine_transform(x, theta=10, row_axis=0, col_axis=2, channel_axis=1)


def test_transforms_keep_shape_and_rotate_by_90() -> None:
    x = np.arange(25.0).reshape(1, 5, 5)
    np.testing.assert_allclose(image.apply_affine_transform(x, theta=90)[0], np.rot90(x[0]), atol=1e-9)
    # as tf_keras: with col_axis > row_axis, tx moves along the columns, ty along the rows
    np.testing.assert_allclose(image.apply_affine_transform(x, tx=1, fill_mode="constant")[0, :, :4], x[0, :, 1:])
    np.testing.assert_allclose(image.apply_affine_transform(x, ty=1, fill_mode="constant")[0, :4], x[0, 1:])
    np.random.seed(0)
    for out in (image.random_rotation(x, 30), image.random_shift(x, 0.2, 0.2), image.random_shear(x, 20),
                image.random_zoom(x, (0.5, 1.5)), image.random_channel_shift(x, 5.0)):
        assert out.shape == x.shape


def test_random_range_errors() -> None:
    x = np.random.rand(4, 4, 3)
    with pytest.raises(ValueError, match="zoom_range"):
        image.random_zoom(x, (0.5, 1.0, 2.0))
    with pytest.raises(ValueError, match="brightness_range"):
        image.random_brightness(x, (0.5,))


def test_channel_shift_clips_to_the_image_range() -> None:
    x = np.array([[[0.0, 10.0]], [[5.0, 20.0]]])
    out = image.apply_channel_shift(x, 15.0)
    assert out.min() >= 0.0 and out.max() == 20.0
    np.testing.assert_array_equal(out, [[[15.0, 20.0]], [[20.0, 20.0]]])


def test_generator_argument_errors() -> None:
    with pytest.raises(ValueError, match="data_format"):
        ImageDataGenerator(data_format="nhwc")
    with pytest.raises(ValueError, match="validation_split"):
        ImageDataGenerator(validation_split=1.5)
    with pytest.raises(ValueError, match="zoom_range"):
        ImageDataGenerator(zoom_range=(0.5, 1.0, 2.0))
    with pytest.raises(ValueError, match="brightness_range"):
        ImageDataGenerator(brightness_range=0.5)


def test_generator_overrides_warn() -> None:
    with pytest.warns(UserWarning, match="overrides setting of `featurewise_center`"):
        g = ImageDataGenerator(featurewise_std_normalization=True)
    assert g.featurewise_center
    with pytest.warns(UserWarning, match="overrides setting of `samplewise_center`"):
        assert ImageDataGenerator(samplewise_std_normalization=True).samplewise_center
    with pytest.warns(UserWarning) as record:  # and, as tf_keras, the featurewise_center one again
        g = ImageDataGenerator(zca_whitening=True, featurewise_std_normalization=True)
    assert sum("`zca_whitening`" in str(w.message) for w in record) == 2
    assert g.featurewise_center and not g.featurewise_std_normalization


def test_standardize_before_fit_warns_and_fit_errors() -> None:
    g = ImageDataGenerator(featurewise_center=True)
    x = np.ones((2, 3, 3, 1), np.float32)
    with pytest.warns(UserWarning, match="hasn't been fit"):
        np.testing.assert_array_equal(g.standardize(x.copy()), x)
    with pytest.raises(ValueError, match="rank 4"):
        g.fit(np.zeros((3, 3, 1)))
    with pytest.warns(UserWarning, match="expected either 1, 3 or 4 channels|expected either 1, 3, or 4 channels"):
        g.fit(np.random.rand(2, 3, 3, 5))
    assert g.mean is not None and g.mean.shape == (1, 1, 5)


def test_fit_statistics_and_standardize() -> None:
    x = np.random.RandomState(2).rand(6, 4, 4, 3).astype(np.float32) * 10
    with pytest.warns(UserWarning):
        g = ImageDataGenerator(featurewise_std_normalization=True)
    g.fit(x)
    assert g.mean is not None and g.std is not None
    np.testing.assert_allclose(g.mean.ravel(), x.mean(axis=(0, 1, 2)), rtol=1e-5)
    out = g.standardize(x.copy())
    np.testing.assert_allclose(out.mean(axis=(0, 1, 2)), 0.0, atol=1e-5)
    np.testing.assert_allclose(out.std(axis=(0, 1, 2)), 1.0, atol=1e-4)
    s = ImageDataGenerator(samplewise_center=True, rescale=2.0, preprocessing_function=lambda a: a + 1.0)
    np.testing.assert_allclose(s.standardize(np.full((2, 2, 1), 3.0)), 0.0)


def test_numpy_iterator_errors() -> None:
    g = ImageDataGenerator(validation_split=0.5)
    x = np.zeros((4, 2, 2, 3))
    with pytest.raises(ValueError, match="should have the same length"):
        g.flow(x, np.zeros(3))
    with pytest.raises(ValueError, match="sample_weight"):
        g.flow(x, np.zeros(4), sample_weight=np.ones(5))
    with pytest.raises(ValueError, match="All of the arrays in `x`"):
        g.flow((x, np.zeros(3)))
    with pytest.raises(ValueError, match="rank 4"):
        g.flow(np.zeros((4, 2, 2)))
    with pytest.raises(ValueError, match="Invalid subset name"):
        g.flow(x, subset="test")
    with pytest.raises(ValueError, match="different number of classes"):
        g.flow(x, np.array([0, 0, 1, 1]), subset="training")
    with pytest.warns(UserWarning, match="expected either 1, 3, or 4 channels"):
        g.flow(np.zeros((4, 2, 2, 2)))
    it = g.flow(x, batch_size=3)
    assert len(it) == 2
    with pytest.raises(ValueError, match="Asked to retrieve element 2, but the Sequence has length 2"):
        it[2]


def test_numpy_iterator_batches_and_epochs() -> None:
    x = np.arange(5.0).reshape(5, 1, 1, 1) * np.ones((1, 2, 2, 1))
    it = ImageDataGenerator().flow(x, np.arange(5), batch_size=2, shuffle=False)
    ys = [next(it)[1].tolist() for _ in range(4)]
    assert ys == [[0, 1], [2, 3], [4], [0, 1]]
    assert it.total_batches_seen == 4
    only_x = ImageDataGenerator().flow(x, batch_size=5, shuffle=False)[0]
    assert isinstance(only_x, np.ndarray) and only_x.shape == (5, 2, 2, 1) and only_x.dtype == np.float32
    a = ImageDataGenerator(rotation_range=40, horizontal_flip=True).flow(np.random.rand(6, 4, 4, 3), batch_size=2,
                                                                         seed=3)
    b = ImageDataGenerator(rotation_range=40, horizontal_flip=True).flow(a.x, batch_size=2, seed=3)
    np.testing.assert_array_equal(a[1], b[1])
    c = ImageDataGenerator(rotation_range=40, horizontal_flip=True).flow(a.x, batch_size=2, seed=4)
    assert not np.array_equal(a[0], c[0])


def test_directory_iterator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_tree(tmp_path, {"b": 2, "a": 3})
    (tmp_path / "a" / "skip.txt").write_text("x")
    it = ImageDataGenerator().flow_from_directory(str(tmp_path), target_size=(3, 2), batch_size=4, shuffle=False)
    assert "Found 5 images belonging to 2 classes." in capsys.readouterr().out
    assert it.class_indices == {"a": 0, "b": 1}
    assert it.filenames == [os.path.join("a", f"{i}.png") for i in range(3)] + [
        os.path.join("b", f"{i}.png") for i in range(2)]
    assert it.classes.dtype == np.int32 and it.classes.tolist() == [0, 0, 0, 1, 1]
    x, y = it[1]
    assert x.shape == (1, 3, 2, 3) and y.tolist() == [[0.0, 1.0]]
    sparse_y = ImageDataGenerator().flow_from_directory(str(tmp_path), target_size=(3, 2), class_mode="sparse",
                                                        shuffle=False)[0][1]
    assert sparse_y.dtype == np.float32 and sparse_y.tolist() == [0, 0, 0, 1, 1]
    gray = image.DirectoryIterator(str(tmp_path), None, target_size=(3, 2), color_mode="grayscale",
                                   class_mode=None, shuffle=False)[0]
    assert gray.shape == (5, 3, 2, 1) and gray.max() > 1.0


def test_directory_iterator_errors(tmp_path: Path) -> None:
    _write_tree(tmp_path, {"a": 1})
    g = ImageDataGenerator()
    with pytest.raises(ValueError, match="Invalid color mode"):
        g.flow_from_directory(str(tmp_path), color_mode="cmyk")
    with pytest.raises(ValueError, match="Invalid class_mode"):
        g.flow_from_directory(str(tmp_path), class_mode="onehot")
    with pytest.raises(ValueError, match="Invalid subset name"):
        g.flow_from_directory(str(tmp_path), subset="test")
    with pytest.raises(FileNotFoundError):
        g.flow_from_directory(str(tmp_path / "missing"))


def test_empty_directory_gives_no_batches(tmp_path: Path) -> None:
    it = ImageDataGenerator().flow_from_directory(str(tmp_path), target_size=(2, 2))
    assert it.samples == 0 and len(it) == 0 and it.num_classes == 0


def test_model_fit_on_iterator() -> None:
    x = np.random.RandomState(0).rand(8, 4, 4, 1).astype(np.float32)
    y = keras.utils.to_categorical(np.arange(8) % 2, 2)
    model = keras.Sequential([keras.layers.Flatten(input_shape=(4, 4, 1)), keras.layers.Dense(2, activation="softmax")])
    model.compile("sgd", "categorical_crossentropy")
    it = ImageDataGenerator(horizontal_flip=True).flow(x, y, batch_size=3, seed=0)
    history = model.fit(it, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    assert it.total_batches_seen == 6
    assert model.predict(ImageDataGenerator().flow(x, batch_size=3, shuffle=False)).shape == (8, 2)


def test_evaluate_on_an_iterator_averages_the_loss_over_batches() -> None:
    x = np.zeros((5, 2, 2, 1), np.float32)
    y = np.array([[1.0], [2.0], [3.0], [4.0], [10.0]], np.float32)
    model = keras.Sequential([keras.layers.Flatten(input_shape=(2, 2, 1)),
                              keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile("sgd", "mse")
    it = ImageDataGenerator().flow(x, y, batch_size=3, shuffle=False)  # batches of 3 and 2
    per_batch = [np.mean(y[:3] ** 2), np.mean(y[3:] ** 2)]
    np.testing.assert_allclose(model.evaluate(it, verbose=0), np.mean(per_batch), rtol=1e-6)
    # arrays weigh the samples, as Keras
    np.testing.assert_allclose(model.evaluate(x, y, batch_size=3, verbose=0), np.mean(y ** 2), rtol=1e-6)


def test_fit_reshuffles_a_sequence_order_in_place() -> None:
    seen: list[int] = []

    class Recording(keras.utils.Sequence):
        def __len__(self) -> int:
            return 5

        def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
            seen.append(i)
            return np.zeros((1, 2), np.float32), np.zeros((1, 1), np.float32)

    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile("sgd", "mse")

    random.seed(0)
    model.fit(Recording(), epochs=2, verbose=0, shuffle=True)
    order = list(range(5))
    random.seed(0)
    random.shuffle(order)
    first = list(order)
    random.shuffle(order)  # Keras' enqueuer reshuffles the last epoch's order
    assert seen == first + order


def test_fit_epochs_shorter_than_a_sequence_go_on_where_they_stopped() -> None:
    seen: list[object] = []

    class Recording(keras.utils.Sequence):
        def __len__(self) -> int:
            return 3

        def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
            seen.append(i)
            return np.zeros((1, 2), np.float32), np.zeros((1, 1), np.float32)

        def on_epoch_end(self) -> None:
            seen.append("end")

    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile("sgd", "mse")
    model.fit(Recording(), steps_per_epoch=2, epochs=3, verbose=0, shuffle=False)
    assert seen == [0, 1, 2, "end", 0, 1, 2, "end"]
    seen.clear()
    history = model.fit_generator(Recording(), steps_per_epoch=2.5, epochs=2, verbose=0, shuffle=False)
    assert seen == [0, 1, 2, "end", 0, 1, 2, "end"]  # 2.5 steps are 3, as Keras' `step < steps`
    assert len(history.history["loss"]) == 2


def test_flow_from_dataframe_is_not_supported() -> None:
    with pytest.raises(NotImplementedError, match="flow_from_dataframe is not supported"):
        ImageDataGenerator().flow_from_dataframe(None, x_col="filename")


def test_binary_crossentropy_on_image_masks_infers_with_unknown_target_dims() -> None:
    # Keras' target placeholder is [?, ?, ?, ?]; the sigmoid cross-entropy broadcasts with the
    # logits [?, 8, 8, 1] as TF's element-wise composite (static shape [?, 8, 8, ?])
    labels, logits = placeholder("float32", [None, None, None, None]), placeholder("float32", [None, 8, 8, 1])
    assert nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits).shape.as_list() == [None, 8, 8, None]
    with pytest.raises(ValueError, match=r"must have the same shape, received \(\(2, 1\) vs \(2, 3\)\)\. \(node"):
        nn.sigmoid_cross_entropy_with_logits(labels=placeholder("float32", [2, 3]),
                                             logits=placeholder("float32", [2, 1]))


def test_softmax_segmentation_trains_on_rank_4_targets() -> None:
    # categorical cross-entropy over the channels of [?, 8, 8, 3] softmax maps (targets [?, ?, ?, ?])
    x = np.random.RandomState(0).rand(4, 8, 8, 3).astype(np.float32)
    y = keras.utils.to_categorical(np.random.RandomState(1).randint(0, 3, size=(4, 8, 8)), 3)
    model = keras.Sequential([keras.layers.Conv2D(3, 3, padding="same", activation="softmax", input_shape=(8, 8, 3))])
    model.compile("sgd", "categorical_crossentropy")
    history = model.fit(x, y, batch_size=2, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    with pytest.raises(ValueError, match=r"must be broadcastable: logits_size=\[2, 3\] labels_size=\[2, 4\]"):
        nn.softmax_cross_entropy_with_logits_v2(labels=placeholder("float32", [2, 4]),
                                                logits=placeholder("float32", [2, 3]))
