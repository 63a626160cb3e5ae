/*
 * _hot_module.c: PyInit__hot, the extension module jaxsess._core.runtime._hot
 * made of the C twins of its files (see _hot.h): the plan-cache hit of
 * Session.run and make_callable (_hot.c), the ownership registry's
 * swap_pinned (_hot_registry.c), session.wrap's and session.jit's call of a
 * fresh callable (_hot_wrap.c), the registry's table of owned arrays (_hot_owned.c).
 * It twins no Python code itself.
 *
 * Why C: at about 20 us per call on a 2-core machine, the Python frames,
 * attribute loads and tuple building of those hot paths cost 5-7 us, which
 * is the whole of the gap to raw jax.jit that issue 15's targets leave; a
 * training step's Python path cost 10-20 us more than its plan's call.
 */
#include "_hot.h"

static struct PyModuleDef hot_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "jaxsess._core.runtime._hot",
    .m_doc = "C twins of jaxsess's per-call paths: the cache hit of Session.run and make_callable (_hot.c), "
             "the ownership registry's swap_pinned (_hot_registry.c), session.wrap's and session.jit's fresh call "
             "(_hot_wrap.c), the registry's table of owned arrays (_hot_owned.c).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__hot(void)
{
    if (hot_common_init() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&hot_module);
    if (m == NULL)
        return NULL;
    if (hot_run_init(m) < 0 || hot_registry_init(m) < 0 || hot_wrap_init(m) < 0 || hot_owned_init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
