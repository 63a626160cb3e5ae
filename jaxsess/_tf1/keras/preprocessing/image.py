"""``jaxsess._tf1.keras.preprocessing.image``, as tf_keras' ``tf.keras.preprocessing.image`` (Keras 2):
``ImageDataGenerator`` and its iterators over arrays and directories, the PIL helpers and the
random transforms. NumPy/PIL/SciPy on the host, no graph ops; random draws come from NumPy's
global random state in tf_keras' order, so a seeded program gets tf_keras' images."""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable, Iterator as _PyIterator
from typing import Any

import numpy as np

from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._image_utils import array_to_img, img_to_array, load_img, save_img
from jaxsess._tf1.keras._sequence import Sequence
from jaxsess._tf1.keras.preprocessing._image_transforms import (
    apply_affine_transform,
    apply_brightness_shift,
    apply_channel_shift,
    flip_axis,
    random_brightness,
    random_channel_shift,
    random_rotation,
    random_shear,
    random_shift,
    random_zoom,
)

__all__ = ["DirectoryIterator", "ImageDataGenerator", "Iterator", "NumpyArrayIterator", "apply_affine_transform",
           "apply_brightness_shift", "apply_channel_shift", "array_to_img", "img_to_array", "load_img",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom", "save_img"]

_NOT_FIT = ("This ImageDataGenerator specifies `{}`, but it hasn't been fit on any training data. "
            "Fit it first by calling `.fit(numpy_data)`.")


def _check_channels(what: str, shape: tuple[int, ...], data_format: str, channel_axis: int) -> None:
    if shape[channel_axis] not in (1, 3, 4):
        warnings.warn(f'{what} is set to use the data format convention "{data_format}" (channels on axis '
                      f"{channel_axis}), i.e. expected either 1, 3, or 4 channels on axis {channel_axis}. However, it "
                      f"was passed an array with shape {shape} ({shape[channel_axis]} channels).", stacklevel=3)


class Iterator(Sequence):
    """Batches of ``n`` samples, as ``tf.keras.preprocessing.image.Iterator``: a
    ``keras.utils.Sequence`` (``it[i]``, ``len(it)`` batches, for ``Model.fit``) and an endless
    Python iterator (``next(it)``, cycling through epochs).

    Subclasses define ``_get_batches_of_transformed_samples(index_array)``.

    With a ``seed``, NumPy's global random state is seeded with ``seed + total_batches_seen``
    before each batch (its order and random transforms), as tf_keras; ``shuffle`` draws a new
    permutation (``np.random.permutation``) at each epoch.

    Args:
      n: the number of samples.
      batch_size: samples per batch (the last batch may be smaller).
      shuffle: shuffle the samples at each epoch.
      seed: the random seed (``None``: NumPy's global state as it is).
    """

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n: int, batch_size: int, shuffle: bool, seed: int | None) -> None:
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array: np.ndarray | None = None
        self.index_generator = self._flow_index()

    def _set_index_array(self) -> None:
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx: int) -> Any:
        """Batch ``idx`` of this epoch.

        Raises:
          ValueError: ``idx >= len(self)``.
        """
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        assert self.index_array is not None
        return self._get_batches_of_transformed_samples(
            self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])

    def __len__(self) -> int:
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self) -> None:
        self._set_index_array()

    def reset(self) -> None:
        """Starts ``next`` over at the first batch of an epoch."""
        self.batch_index = 0

    def _flow_index(self) -> _PyIterator[np.ndarray]:
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            assert self.index_array is not None
            current = (self.batch_index * self.batch_size) % self.n if self.n else 0
            self.batch_index = self.batch_index + 1 if self.n > current + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[current:current + self.batch_size]

    def __iter__(self) -> Iterator:  # type: ignore[override]
        return self

    def __next__(self) -> Any:
        return self.next()

    def next(self) -> Any:
        """The next batch (a new epoch, reshuffled, after the last one)."""
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        raise NotImplementedError


class NumpyArrayIterator(Iterator):
    """Batches of augmented images from arrays, as ``tf.keras.preprocessing.image.NumpyArrayIterator``
    (made by :meth:`ImageDataGenerator.flow`).

    Each batch is ``x_batch`` (``[b, *x.shape[1:]]`` of the generator's ``dtype``), or
    ``(x_batch, y_batch)``, or ``(x_batch, y_batch, sample_weight_batch)``; when ``x`` is a pair
    ``(images, other)``, ``x_batch`` is ``[images_batch, *other_batches]``.

    Args:
      x: images ``[n, h, w, c]`` (``channels_first``: ``[n, c, h, w]``), or a tuple/list
        ``(images, array_or_list_of_arrays)`` whose second part is passed through unchanged.
      y: labels (``n`` rows) or ``None``.
      image_data_generator: the :class:`ImageDataGenerator` that transforms and standardizes.
      batch_size, shuffle, seed: as :class:`Iterator`.
      sample_weight: ``n`` weights or ``None``.
      data_format: ``'channels_last'``/``'channels_first'`` (default the backend's).
      save_to_dir, save_prefix, save_format: also write each batch's images there.
      subset: ``'training'`` or ``'validation'``: the generator's ``validation_split``; the
        validation part is the first ``int(n * validation_split)`` samples.
      ignore_class_split: allow the two subsets to hold different label sets.
      dtype: of the image batches (default ``floatx()``).

    Raises:
      ValueError: lengths that differ; an unknown ``subset``; subsets with different label sets
        (unless ``ignore_class_split``); images not of rank 4.
    """

    def __init__(self, x: Any, y: Any, image_data_generator: ImageDataGenerator, batch_size: int = 32,
                 shuffle: bool = False, sample_weight: Any = None, seed: int | None = None,
                 data_format: str | None = None, save_to_dir: str | None = None, save_prefix: str = "",
                 save_format: str = "png", subset: str | None = None, ignore_class_split: bool = False,
                 dtype: Any = None) -> None:
        data_format = K.image_data_format() if data_format is None else data_format
        self.dtype = K.floatx() if dtype is None else dtype
        if isinstance(x, (tuple, list)):
            x_misc = [np.asarray(a) for a in x[1]] if isinstance(x[1], list) else [np.asarray(x[1])]
            x = x[0]
            for a in x_misc:
                if len(x) != len(a):
                    raise ValueError("All of the arrays in `x` should have the same length. Found a pair with: "
                                     f"len(x[0]) = {len(x)}, len(x[?]) = {len(a)}")
        else:
            x_misc = []
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. Found: x.shape = "
                             f"{np.asarray(x).shape}, y.shape = {np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same length. Found: x.shape = "
                             f"{np.asarray(x).shape}, sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in ("training", "validation"):
                raise ValueError(f'Invalid subset name: {subset!r}; expected "training" or "validation".')
            split = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:split]), np.unique(y[split:]))):
                raise ValueError("Training and validation subsets have different number of classes after the split. "
                                 "If your numpy arrays are sorted by the label, you might want to shuffle them.")
            part = slice(None, split) if subset == "validation" else slice(split, None)
            x = x[part]
            x_misc = [np.asarray(a[part]) for a in x_misc]
            if y is not None:
                y = y[part]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed an array with shape "
                             f"{self.x.shape}")
        _check_channels("NumpyArrayIterator", self.x.shape, data_format, 3 if data_format == "channels_last" else 1)
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        gen = self.image_data_generator
        batch_x = np.zeros((len(index_array), *self.x.shape[1:]), dtype=self.dtype)
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = gen.get_random_transform(x.shape)
            batch_x[i] = gen.standardize(gen.apply_transform(x.astype(self.dtype), params))
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                        self.save_format, 10_000)
        misc = [a[index_array] for a in self.x_misc]
        first = [batch_x, *misc] if misc else batch_x
        if self.y is None:
            return first
        if self.sample_weight is None:
            return first, self.y[index_array]
        return first, self.y[index_array], self.sample_weight[index_array]


def _save_batch(batch_x: np.ndarray, index_array: np.ndarray, data_format: str, directory: str, prefix: str,
                file_format: str, hash_range: int) -> None:
    for i, j in enumerate(index_array):
        img = array_to_img(batch_x[i], data_format, scale=True)
        img.save(os.path.join(directory, f"{prefix}_{j}_{np.random.randint(hash_range)}.{file_format}"))


def _valid_files(directory: str, formats: tuple[str, ...], follow_links: bool) -> list[tuple[str, str]]:
    """``(root, file name)`` of the image files under ``directory``, sorted as tf_keras."""
    found = []
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda t: t[0]):
        for name in sorted(files):
            if name.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. Please verify your '
                              "output.", stacklevel=4)
            if name.lower().endswith(formats):
                found.append((root, name))
    return found


class DirectoryIterator(Iterator):
    """Batches of augmented images read from one subdirectory per class, as
    ``tf.keras.preprocessing.image.DirectoryIterator`` (made by
    :meth:`ImageDataGenerator.flow_from_directory`).

    Classes are the subdirectory names (sorted) unless ``classes`` is given; their files (png,
    jpg, jpeg, bmp, ppm, tif, tiff, in any subfolder) are listed sorted. Prints ``Found N images
    belonging to K classes.`` Attributes as tf_keras: ``filenames`` (relative),
    ``filepaths``, ``classes`` (``int32`` per file), ``class_indices``, ``num_classes``,
    ``samples``, ``image_shape``.

    Each batch is ``x_batch`` (``[b, *target_size, channels]``, the generator's ``dtype``) and
    the labels of ``class_mode``: ``'categorical'`` one-hot ``[b, num_classes]``, ``'binary'``/
    ``'sparse'`` class ids ``[b]`` (both in ``dtype``), ``'input'`` a copy of ``x_batch``, ``None``
    no labels (the batch is ``x_batch`` alone).

    Args:
      directory: the folder of class subfolders.
      image_data_generator: the :class:`ImageDataGenerator` (or ``None``: no transforms).
      target_size: ``(height, width)`` images are resized to (``interpolation``; see
        :func:`load_img`, with ``keep_aspect_ratio``).
      color_mode: ``'rgb'`` (3 channels), ``'rgba'`` (4), ``'grayscale'`` (1).
      classes: the class subfolder names, in label order.
      class_mode: as above.
      batch_size, shuffle, seed: as :class:`Iterator`.
      data_format: ``'channels_last'``/``'channels_first'`` (default the backend's).
      save_to_dir, save_prefix, save_format: also write each batch's images there.
      follow_links: follow symbolic links to folders.
      subset: ``'training'``/``'validation'``: of each class's files, the validation part is
        the first ``int(validation_split * count)``.
      dtype: of the batches (default ``floatx()``).

    Raises:
      ValueError: an unknown ``color_mode``, ``class_mode`` or ``subset``.
      KeyError / OSError: as the listing and PIL for missing folders or unreadable files.
    """

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory: str, image_data_generator: ImageDataGenerator | None,
                 target_size: tuple[int, int] = (256, 256), color_mode: str = "rgb", classes: list[str] | None = None,
                 class_mode: str | None = "categorical", batch_size: int = 32, shuffle: bool = True,
                 seed: int | None = None, data_format: str | None = None, save_to_dir: str | None = None,
                 save_prefix: str = "", save_format: str = "png", follow_links: bool = False,
                 subset: str | None = None, interpolation: str = "nearest", keep_aspect_ratio: bool = False,
                 dtype: Any = None) -> None:
        data_format = K.image_data_format() if data_format is None else data_format
        self.dtype = K.floatx() if dtype is None else dtype
        self.image_data_generator = image_data_generator
        self.target_size: tuple[int, int] = (int(target_size[0]), int(target_size[1]))
        self.keep_aspect_ratio = keep_aspect_ratio
        channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
        if channels is None:
            raise ValueError(f'Invalid color mode: {color_mode!r}; expected "rgb", "rgba", or "grayscale".')
        self.color_mode = color_mode
        self.data_format = data_format
        self.image_shape = ((*self.target_size, channels) if data_format == "channels_last"
                            else (channels, *self.target_size))
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        self.interpolation = interpolation
        split: tuple[float, float] | None = None
        if subset is not None:
            validation_split = image_data_generator._validation_split if image_data_generator else 0.0
            if subset == "validation":
                split = (0, validation_split)
            elif subset == "training":
                split = (validation_split, 1)
            else:
                raise ValueError(f'Invalid subset name: {subset!r}; expected "training" or "validation"')
        self.split = split
        self.subset = subset
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {self.allowed_class_modes}")
        self.class_mode = class_mode
        self.directory = directory
        if not classes:
            classes = [d for d in sorted(os.listdir(directory)) if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes)), strict=True))
        self.filenames: list[str] = []
        labels: list[int] = []
        for name in classes:
            folder = os.path.join(directory, name)
            files = _valid_files(folder, self.white_list_formats, follow_links)
            if split:
                files = files[int(split[0] * len(files)):int(split[1] * len(files))]
            for root, fname in files:
                labels.append(self.class_indices[name])
                self.filenames.append(os.path.join(name, os.path.relpath(os.path.join(root, fname), folder)))
        self.samples = len(self.filenames)
        self.classes = np.asarray(labels, dtype="int32").reshape(self.samples)
        print(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self) -> list[str]:
        """The image files, ``directory`` joined with ``filenames``."""
        return self._filepaths

    @property
    def labels(self) -> np.ndarray:
        """The class id of every file (``classes``)."""
        return self.classes

    @property
    def sample_weight(self) -> None:
        return None

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        gen = self.image_data_generator
        batch_x = np.zeros((len(index_array), *self.image_shape), dtype=self.dtype)
        for i, j in enumerate(index_array):
            img = load_img(self._filepaths[j], color_mode=self.color_mode, target_size=self.target_size,
                           interpolation=self.interpolation, keep_aspect_ratio=self.keep_aspect_ratio)
            x = img_to_array(img, data_format=self.data_format)
            img.close()
            if gen:
                x = gen.standardize(gen.apply_transform(x, gen.get_random_transform(x.shape)))
            batch_x[i] = x
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                        self.save_format, 10_000_000)
        if self.class_mode == "input":
            batch_y: np.ndarray = batch_x.copy()
        elif self.class_mode in ("binary", "sparse"):
            batch_y = self.classes[index_array].astype(self.dtype)
        elif self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            batch_y[np.arange(len(batch_x)), self.classes[index_array]] = 1.0
        else:
            return batch_x
        return batch_x, batch_y


def _parse_range(name: str, value: Any) -> list[float]:
    if isinstance(value, (float, int)):
        return [1 - value, 1 + value]
    if len(value) == 2 and all(isinstance(v, (float, int)) for v in value):
        return [value[0], value[1]]
    raise ValueError(f"`{name}` should be a float or a tuple or list of two floats. Received: {value}")


def _random_shift(shift_range: Any, size: int) -> Any:
    """A shift drawn as tf_keras: from a 1-D range / int (``np.random.choice``, then a sign), else
    ``uniform(-range, range)``; as a fraction of ``size`` when the range is below 1."""
    try:
        shift = np.random.choice(shift_range)
        shift *= np.random.choice([-1, 1])
    except ValueError:  # a float: np.random.choice wants an int or a 1-D array
        shift = np.random.uniform(-shift_range, shift_range)
    if np.max(shift_range) < 1:
        shift *= size
    return shift


class ImageDataGenerator:
    """Batches of images with random augmentation and normalization, as tf_keras'
    ``tf.keras.preprocessing.image.ImageDataGenerator`` (Keras 2).

    Per image, :meth:`random_transform` (rotation, shifts, shear, zoom, channel shift, flips,
    brightness; drawn from NumPy's global random state in tf_keras' order) then
    :meth:`standardize` (``preprocessing_function``, ``rescale``, sample- then feature-wise
    centring and scaling, ZCA whitening). Feature-wise statistics come from :meth:`fit`.

    Args:
      featurewise_center, featurewise_std_normalization: subtract the mean / divide by the
        standard deviation (``+ 1e-6``) per channel, from :meth:`fit` (the latter implies the
        former, with a warning).
      samplewise_center, samplewise_std_normalization: the same per image.
      zca_whitening: ZCA whitening from :meth:`fit` (implies ``featurewise_center``, overrides
        ``featurewise_std_normalization``); ``zca_epsilon`` its regularization.
      rotation_range: degrees, ``uniform(-r, r)``.
      width_shift_range, height_shift_range: a float (a fraction of the size when below 1,
        else pixels), an int or a list of ints (pixels drawn from it, with a random sign).
      brightness_range: ``(low, high)`` factors of :func:`apply_brightness_shift`.
      shear_range: degrees.
      zoom_range: a float ``z`` (``[1 - z, 1 + z]``) or ``[low, high]``.
      channel_shift_range: intensity of :func:`apply_channel_shift`.
      fill_mode, cval, interpolation_order: of :func:`apply_affine_transform`.
      horizontal_flip, vertical_flip: flip half of the images.
      rescale: a factor applied first (``None``/0: none).
      preprocessing_function: ``f(image) -> image`` applied before everything else in
        :meth:`standardize`.
      data_format: ``'channels_last'``/``'channels_first'`` (default the backend's).
      validation_split: the fraction reserved for ``subset='validation'``.
      dtype: of the generated arrays (default ``floatx()``).

    Raises:
      ValueError: an unknown ``data_format``; ``validation_split`` not in (0, 1); a bad
        ``zoom_range`` or ``brightness_range``.
    """

    def __init__(self, featurewise_center: bool = False, samplewise_center: bool = False,
                 featurewise_std_normalization: bool = False, samplewise_std_normalization: bool = False,
                 zca_whitening: bool = False, zca_epsilon: float = 1e-6, rotation_range: float = 0,
                 width_shift_range: Any = 0.0, height_shift_range: Any = 0.0, brightness_range: Any = None,
                 shear_range: float = 0.0, zoom_range: Any = 0.0, channel_shift_range: float = 0.0,
                 fill_mode: str = "nearest", cval: float = 0.0, horizontal_flip: bool = False,
                 vertical_flip: bool = False, rescale: float | None = None,
                 preprocessing_function: Callable[[np.ndarray], np.ndarray] | None = None,
                 data_format: str | None = None, validation_split: float = 0.0, interpolation_order: int = 1,
                 dtype: Any = None) -> None:
        data_format = K.image_data_format() if data_format is None else data_format
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening = zca_whitening
        self.zca_epsilon = zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range = width_shift_range
        self.height_shift_range = height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode = fill_mode
        self.cval = cval
        self.horizontal_flip = horizontal_flip
        self.vertical_flip = vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = K.floatx() if dtype is None else dtype
        self.interpolation_order = interpolation_order
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and column) or '
                             f'`"channels_first"` (channel before row and column). Received: {data_format}')
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = (3, 1, 2) if data_format == "channels_last" else (1, 2, 3)
        if validation_split and not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be strictly between 0 and 1.  Received: {validation_split}")
        self._validation_split = validation_split
        self.mean: np.ndarray | None = None
        self.std: np.ndarray | None = None
        self.zca_whitening_matrix: np.ndarray | None = None
        self.zoom_range = _parse_range("zoom_range", zoom_range)
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides setting of "
                              "`featurewise_center`.", stacklevel=2)
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides setting of"
                              "`featurewise_std_normalization`.", stacklevel=2)
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, which overrides "
                          "setting of `featurewise_center`.", stacklevel=2)
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, which overrides "
                          "setting of `samplewise_center`.", stacklevel=2)
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x: Any, y: Any = None, batch_size: int = 32, shuffle: bool = True, sample_weight: Any = None,
             seed: int | None = None, save_to_dir: str | None = None, save_prefix: str = "",
             save_format: str = "png", ignore_class_split: bool = False,
             subset: str | None = None) -> NumpyArrayIterator:
        """A :class:`NumpyArrayIterator` over ``x`` (rank-4 images, or ``(images, other)``), ``y``
        and ``sample_weight``, as ``ImageDataGenerator.flow``; batches ``x`` / ``(x, y)`` /
        ``(x, y, sample_weight)``.

        Raises:
          ValueError: as :class:`NumpyArrayIterator`.
        """
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle, sample_weight=sample_weight,
                                  seed=seed, data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset, dtype=self.dtype)

    def flow_from_directory(self, directory: str, target_size: tuple[int, int] = (256, 256), color_mode: str = "rgb",
                            classes: list[str] | None = None, class_mode: str | None = "categorical",
                            batch_size: int = 32, shuffle: bool = True, seed: int | None = None,
                            save_to_dir: str | None = None, save_prefix: str = "", save_format: str = "png",
                            follow_links: bool = False, subset: str | None = None, interpolation: str = "nearest",
                            keep_aspect_ratio: bool = False) -> DirectoryIterator:
        """A :class:`DirectoryIterator` over ``directory``'s class subfolders, as
        ``ImageDataGenerator.flow_from_directory``.

        Raises:
          ValueError: as :class:`DirectoryIterator`.
        """
        return DirectoryIterator(directory, self, target_size=target_size, color_mode=color_mode,
                                 keep_aspect_ratio=keep_aspect_ratio, classes=classes, class_mode=class_mode,
                                 data_format=self.data_format, batch_size=batch_size, shuffle=shuffle, seed=seed,
                                 save_to_dir=save_to_dir, save_prefix=save_prefix, save_format=save_format,
                                 follow_links=follow_links, subset=subset, interpolation=interpolation,
                                 dtype=self.dtype)

    def flow_from_dataframe(self, dataframe: Any, *args: Any, **kwargs: Any) -> Any:
        """Not supported (tf_keras reads a pandas ``DataFrame`` of file names here).

        Raises:
          NotImplementedError: always; :meth:`flow_from_directory` or :meth:`flow` on arrays
            read with :func:`load_img`/:func:`img_to_array` are the supported ways.
        """
        raise NotImplementedError("ImageDataGenerator.flow_from_dataframe is not supported by this library (it needs "
                                  "pandas); use flow_from_directory, or flow on arrays made with load_img and "
                                  "img_to_array.")

    def standardize(self, x: np.ndarray) -> np.ndarray:
        """The normalization of ``x`` (one image or a batch), in place where NumPy allows, as
        ``ImageDataGenerator.standardize``: ``preprocessing_function``, ``rescale``,
        sample-wise then feature-wise centring and scaling, ZCA. A feature-wise step that
        :meth:`fit` has not computed is skipped with a warning."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                warnings.warn(_NOT_FIT.format("featurewise_center"), stacklevel=2)
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                warnings.warn(_NOT_FIT.format("featurewise_std_normalization"), stacklevel=2)
        if self.zca_whitening:
            if self.zca_whitening_matrix is not None:
                flat = x.reshape(-1, int(np.prod(x.shape[-3:])))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
            else:
                warnings.warn(_NOT_FIT.format("zca_whitening"), stacklevel=2)
        return x

    def get_random_transform(self, img_shape: tuple[int, ...], seed: int | None = None) -> dict[str, Any]:
        """Random transform parameters for an image of ``img_shape``, drawn as tf_keras
        (``np.random``, seeded with ``seed`` first when given).

        Returns:
          ``{'theta', 'tx', 'ty', 'shear', 'zx', 'zy', 'flip_horizontal', 'flip_vertical',
          'channel_shift_intensity', 'brightness'}`` (the last two ``None`` when off). ``tx``
          is drawn from ``height_shift_range`` (scaled by the height) and ``ty`` from
          ``width_shift_range``, in pixels; :func:`apply_affine_transform` then moves the image
          by ``tx`` along its columns and ``ty`` along its rows, exactly as tf_keras.
        """
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation_range, self.rotation_range) if self.rotation_range else 0
        tx = _random_shift(self.height_shift_range, img_shape[self.row_axis - 1]) if self.height_shift_range else 0
        ty = _random_shift(self.width_shift_range, img_shape[self.col_axis - 1]) if self.width_shift_range else 0
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift_intensity = None
        if self.channel_shift_range != 0:
            channel_shift_intensity = np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift_intensity, "brightness": brightness}

    def apply_transform(self, x: np.ndarray, transform_parameters: dict[str, Any]) -> np.ndarray:
        """The image ``x`` (rank 3) transformed by ``transform_parameters`` (keys as
        :meth:`get_random_transform`; missing ones are the identity): the affine part, the channel
        shift, the flips, the brightness, in tf_keras' order. Same shape."""
        row, col, channel = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        p = transform_parameters
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0), p.get("shear", 0),
                                   p.get("zx", 1), p.get("zy", 1), row_axis=row, col_axis=col, channel_axis=channel,
                                   fill_mode=self.fill_mode, cval=self.cval, order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channel)
        if p.get("flip_horizontal", False):
            x = flip_axis(x, col)
        if p.get("flip_vertical", False):
            x = flip_axis(x, row)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x: np.ndarray, seed: int | None = None) -> np.ndarray:
        """``x`` (one rank-3 image) randomly transformed: :meth:`get_random_transform` then
        :meth:`apply_transform`."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x: Any, augment: bool = False, rounds: int = 1, seed: int | None = None) -> None:
        """Computes the feature-wise mean, standard deviation and ZCA matrix from the images ``x``
        (rank 4; after ``rescale``; over ``rounds`` random transforms of each when ``augment``),
        as ``ImageDataGenerator.fit``.

        Raises:
          ValueError: ``x`` is not of rank 4.
        """
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError(f"Input to `.fit()` should have rank 4. Got array with shape: {x.shape}")
        _check_channels("ImageDataGenerator.fit", x.shape, self.data_format, self.channel_axis)
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            ax = np.zeros((rounds * x.shape[0], *x.shape[1:]), dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    ax[i + r * x.shape[0]] = self.random_transform(x[i])
            x = ax
        broadcast = [1, 1, 1]
        broadcast[self.channel_axis - 1] = x.shape[self.channel_axis]
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=(0, self.row_axis, self.col_axis)), broadcast)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=(0, self.row_axis, self.col_axis)), broadcast)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
            s_inv = np.sqrt(n) / (s + self.zca_epsilon)
            self.zca_whitening_matrix = (u * s_inv).dot(u.T)
