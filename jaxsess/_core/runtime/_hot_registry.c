/*
 * _hot_registry.c: the ownership registry's helpers in C, part of the
 * extension module jaxsess._core.runtime._hot (see _hot.h). Twins, each of
 * one Python method of OwnershipRegistry in _resources.py, which is the
 * reference and the fallback, with the same contract:
 *
 *   Python (_resources.py)                          C (this file)
 *   OwnershipRegistry._swap_pinned's first branch   swap_pinned (swap_common), and
 *                                                     hot_swap_arrays for _hot.c's state_call
 *
 * Anything but the common case calls the Python code, before anything
 * changed. configure_registry hands them the registry's caches (and the
 * concrete array types, and the safe points hot_call_safe_point may skip,
 * that _hot_common.c uses).
 */
#include "_hot.h"

static PyObject *s_aval, *s_is_deleted, *s_owned, *s_pinned;

/* -- the registry's tables ------------------------------------------------ */

PyObject *hot_nbytes_cache; /* _resources._nbytes_cache: aval -> bytes (_hot.h) */
/* (hot_registry_configured, hot_concrete and the idle safe points, set by configure_registry
 * too, are in _hot_common.c.) */

/* The registry's tables, held while its lock is. */
typedef struct {
    PyObject *owned, *pinned, *pending;
} Tables;

/* 1: the registry is open and its tables are a dict, a dict and a list (new
 * references in *t); 0: not (nothing held); -1: error. */
static int
get_tables(PyObject *reg, Tables *t)
{
    int closed = hot_attr_true(reg, hot_s_closed);
    if (closed != 0)
        return closed < 0 ? -1 : 0;
    t->owned = PyObject_GetAttr(reg, s_owned);
    t->pinned = t->owned == NULL ? NULL : PyObject_GetAttr(reg, s_pinned);
    t->pending = t->pinned == NULL ? NULL : PyObject_GetAttr(reg, hot_s_pending);
    int ok = t->pending == NULL ? -1
                                : hot_owned_check(t->owned) && PyDict_CheckExact(t->pinned)
                                      && PyList_CheckExact(t->pending);
    if (ok <= 0) {
        Py_CLEAR(t->owned);
        Py_CLEAR(t->pinned);
        Py_CLEAR(t->pending);
    }
    return ok;
}

static void
drop_tables(Tables *t)
{
    Py_CLEAR(t->owned);
    Py_CLEAR(t->pinned);
    Py_CLEAR(t->pending);
}

/* -- swap_pinned: a stateful run's variable writes -----------------------------------
 *
 * OwnershipRegistry.swap_pinned's common case, exactly as its Python code
 * does it (_swap_pinned, the reference): fresh new state arrays (in no table)
 * whose sizes the id-keyed size cache holds, every old one deleted
 * (donated to the run), an open registry with nothing pending and its lock
 * free. The old arrays' pinned entries are dropped and counted freed, the new
 * ones pinned and counted allocated, the live bytes and the peak updated.
 * Anything else returns False before changing anything: the caller runs the
 * Python code. */

static PyObject *g_nbytes_of_cache; /* _resources._nbytes_of_cache: avals' ids -> (avals, sizes, total) */

/* 1: every array of items[0..n) is deleted; 0: one is not; -1: error. */
static int
all_deleted(PyObject *const *items, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyObject_CallMethodNoArgs(items[i], s_is_deleted);
        if (r == NULL)
            return -1;
        int t = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (t <= 0)
            return t;
    }
    return 1;
}

/* The sizes of items[0..n) from the id-keyed cache: a borrowed (avals,
 * sizes, total) entry, or NULL (not cached, or an error set). */
static PyObject *
cached_sizes(PyObject *const *items, Py_ssize_t n)
{
    PyObject *key = PyTuple_New(n);
    if (key == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *aval = PyObject_GetAttr(items[i], s_aval);
        PyObject *id = aval == NULL ? NULL : PyLong_FromVoidPtr(aval);
        Py_XDECREF(aval); /* the array holds it: its id stays valid while the cache entry lives */
        if (id == NULL) {
            Py_DECREF(key);
            return NULL;
        }
        PyTuple_SET_ITEM(key, i, id);
    }
    PyObject *hit = PyDict_GetItemWithError(g_nbytes_of_cache, key);
    Py_DECREF(key);
    if (hit == NULL || !PyTuple_CheckExact(hit) || PyTuple_GET_SIZE(hit) != 3
        || !PyTuple_CheckExact(PyTuple_GET_ITEM(hit, 1)) || PyTuple_GET_SIZE(PyTuple_GET_ITEM(hit, 1)) != n
        || !PyLong_CheckExact(PyTuple_GET_ITEM(hit, 2)))
        return NULL;
    return hit;
}

/* The part of swap_common under the registry's lock: 1 done, 0 not the
 * common case (nothing changed), -1 error. An array written to two slots is
 * pinned and counted once, as _swap_pinned does. */
static int
swap_locked(PyObject *reg, PyObject *const *olds, PyObject *const *news, Py_ssize_t n, PyObject *sizes)
{
    Tables t = {NULL, NULL, NULL};
    OwnedCounts c;
    PyObject *ids = NULL;
    int result = get_tables(reg, &t);
    if (result <= 0)
        return result;
    result = 0;
    if (PyList_GET_SIZE(t.pending) != 0)
        goto done;
    if ((ids = PyTuple_New(n)) == NULL) {
        result = -1;
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* fresh arrays: in no table */
        PyObject *id = PyLong_FromVoidPtr(news[i]);
        if (id == NULL) {
            result = -1;
            goto done;
        }
        PyTuple_SET_ITEM(ids, i, id);
        int known = PyDict_Contains(t.pinned, id);
        if (known == 0)
            known = hot_owned_contains(t.owned, news[i]);
        if (known != 0) {
            result = known < 0 ? -1 : 0;
            goto done;
        }
    }
    long long total = PyLong_AsLongLong(PyTuple_GET_ITEM(sizes, 2));
    if (total == -1 && PyErr_Occurred()) {
        result = -1;
        goto done;
    }
    c = *hot_owned_counts(t.owned);
    /* From here on the registry changes: errors are reported. */
    result = 1;
    for (Py_ssize_t i = 0; i < n; i++) { /* the olds' entries: freed (all are deleted) */
        PyObject *id = PyLong_FromVoidPtr(olds[i]);
        PyObject *entry = id == NULL ? NULL : PyDict_GetItemWithError(t.pinned, id);
        if (entry != NULL && PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 2) {
            long long nb = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1));
            if ((nb == -1 && PyErr_Occurred()) || PyDict_DelItem(t.pinned, id) < 0)
                result = -1;
            c.live -= nb;
            c.freed++;
        }
        else if (PyErr_Occurred())
            result = -1;
        Py_XDECREF(id);
        if (result < 0)
            goto done;
    }
    PyObject *nbs = PyTuple_GET_ITEM(sizes, 1);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = PyTuple_GET_ITEM(ids, i), *nb = PyTuple_GET_ITEM(nbs, i);
        int again = PyDict_Contains(t.pinned, id); /* the same array in an earlier slot */
        PyObject *entry = again != 0 ? NULL : PyTuple_Pack(2, news[i], nb);
        if (again < 0 || (again == 0 && (entry == NULL || PyDict_SetItem(t.pinned, id, entry) < 0))) {
            Py_XDECREF(entry);
            result = -1;
            goto done;
        }
        Py_XDECREF(entry);
        if (again)
            total -= PyLong_AsLongLong(nb);
        else
            c.allocated++;
    }
    c.live += total;
    if (c.live > c.peak)
        c.peak = c.live;
done:
    if (result == 1)
        *hot_owned_counts(t.owned) = c;
    drop_tables(&t);
    Py_XDECREF(ids);
    return result;
}

/* swap_pinned's common case for olds[0..n) and news[0..n) (the caller holds
 * both): 1 done, 0 not the common case (nothing changed), -1 error. */
int
hot_swap_arrays(PyObject *reg, PyObject *const *oi, PyObject *const *ni, Py_ssize_t n)
{
    if (!hot_registry_configured || g_nbytes_of_cache == NULL || n == 0)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (oi[i] == Py_None)
            return 0; /* a slot written for the first time */
    PyObject *lock, *sizes = cached_sizes(ni, n);
    if (sizes == NULL)
        return PyErr_Occurred() ? -1 : 0;
    Py_INCREF(sizes);
    int result;
    /* all olds deleted (else one outlives the run: the sweep frees it), the lock free */
    if ((result = all_deleted(oi, n)) > 0 && (result = hot_lock_nowait(reg, &lock)) > 0)
        result = hot_unlock(lock, swap_locked(reg, oi, ni, n, sizes));
    Py_DECREF(sizes);
    return result;
}

static PyObject *
swap_common(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "swap_pinned(registry, olds, news)");
        return NULL;
    }
    PyObject *reg = args[0], *olds = args[1], *news = args[2];
    if (!(PyList_CheckExact(olds) || PyTuple_CheckExact(olds)) || !(PyList_CheckExact(news) || PyTuple_CheckExact(news)))
        Py_RETURN_FALSE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(news);
    if (PySequence_Fast_GET_SIZE(olds) != n)
        Py_RETURN_FALSE;
    /* Python code may run below (is_deleted, a lock): work on a snapshot of both sequences. */
    PyObject *o = PySequence_Tuple(olds), *nw = o == NULL ? NULL : PySequence_Tuple(news);
    if (nw == NULL) {
        Py_XDECREF(o);
        return NULL;
    }
    int result = hot_swap_arrays(reg, ((PyTupleObject *)o)->ob_item, ((PyTupleObject *)nw)->ob_item, n);
    Py_DECREF(o);
    Py_DECREF(nw);
    return result < 0 ? NULL : PyBool_FromLong(result);
}

static PyObject *
configure_registry(PyObject *module, PyObject *args, PyObject *kwds)
{
    PyObject *nbytes_cache, *nbytes_of_cache, *concrete, *noop, *assist, *sweep;
    Py_ssize_t reap_at;
    static char *kwlist[] = {"nbytes_cache", "nbytes_of_cache", "concrete", "noop", "assist", "sweep", "reap_at", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "$OOOOOOn:configure_registry", kwlist, &nbytes_cache,
                                     &nbytes_of_cache, &concrete, &noop, &assist, &sweep, &reap_at))
        return NULL;
    if (!PyDict_Check(nbytes_cache) || !PyDict_Check(nbytes_of_cache) || !PyAnySet_Check(concrete)
        || !PyFunction_Check(noop) || !PyFunction_Check(assist) || !PyFunction_Check(sweep)) {
        PyErr_SetString(PyExc_TypeError, "configure_registry: nbytes_cache and nbytes_of_cache must be dicts, "
                                         "concrete a set, noop, assist and sweep functions");
        return NULL;
    }
    Py_INCREF(nbytes_of_cache);
    Py_XSETREF(g_nbytes_of_cache, nbytes_of_cache);
    Py_INCREF(concrete);
    Py_XSETREF(hot_concrete, concrete);
    Py_INCREF(nbytes_cache);
    Py_XSETREF(hot_nbytes_cache, nbytes_cache);
    if (hot_configure_safe_points(noop, assist, sweep, reap_at) < 0)
        return NULL;
    hot_registry_configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef registry_methods[] = {
    {"configure_registry", (PyCFunction)(void (*)(void))configure_registry, METH_VARARGS | METH_KEYWORDS,
     "configure_registry(*, nbytes_cache, nbytes_of_cache, concrete, noop, assist, sweep, reap_at): what "
     "swap_pinned, WrapCall and the safe points use (concrete: the set of concrete jax.Array types; noop, "
     "assist, sweep: OwnershipRegistry's safe-point functions, reap_at: _REAP_AT); until it is called they "
     "call the Python code."},
    {"swap_pinned", (PyCFunction)(void (*)(void))swap_common, METH_FASTCALL,
     "swap_pinned(registry, olds, news) -> bool: OwnershipRegistry.swap_pinned's common case (every old array "
     "deleted, fresh new ones of cached sizes, nothing pending); False: not that case, nothing changed."},
    {NULL, NULL, 0, NULL},
};

/* configure_registry and swap_pinned into the module; 0, or -1 with an error set. */
int
hot_registry_init(PyObject *module)
{
    HOT_INTERN(s_aval, "aval");
    HOT_INTERN(s_is_deleted, "is_deleted");
    HOT_INTERN(s_owned, "_owned");
    HOT_INTERN(s_pinned, "_pinned");
    return PyModule_AddFunctions(module, registry_methods);
}
