/*
 * _hot_registry.c: the ownership registry's helpers in C, part of the
 * extension module jaxsess._core.runtime._hot (see _hot.h). Twins, each of
 * one Python method of OwnershipRegistry in _resources.py, which is the
 * reference and the fallback, with the same contract:
 *
 *   Python (_resources.py)                          C (this file)
 *   OwnershipRegistry.safe_point (+ sweep's         SafePoint (safepoint_vectorcall,
 *     common case)                                    sweep_common)
 *   OwnershipRegistry._swap_pinned's first branch   swap_pinned (swap_common), and
 *                                                     hot_swap_arrays for _hot.c's state_call
 *
 * Anything but the common case calls the Python code, before anything
 * changed. configure_registry hands them the registry's caches and clock
 * (and the concrete array types hot_adopt uses). A SafePoint's __wrapped__ is
 * the Python safe point.
 */
#include "_hot.h"

static PyObject *s_allocated, *s_aval, *s_collect_at, *s_freed, *s_is_deleted, *s_last_sweep, *s_live_bytes;
static PyObject *s_owned, *s_peak_bytes, *s_pinned, *s_pressure, *s_sweep_at, *s_sweep_at_idle;

/* -- SafePoint: an ownership registry's safe point ------------------------------------
 *
 * OwnershipRegistry.safe_point when this module is built: the strategy's
 * trigger (IN_BACKGROUND: this many arrays adopted since the last sweep;
 * ON_SAFE_POINTS: the same, or the last sweep older than its maximum age),
 * and the sweep's common case in a device-fetch loop — every pending array
 * unreferenced and nothing else owned: they are counted allocated and freed,
 * the peak updated, and dropped — exactly as OwnershipRegistry.sweep does it.
 * Any other case calls the Python safe point (the reference). */

PyObject *hot_nbytes_cache; /* _resources._nbytes_cache: aval -> bytes (_hot.h) */
static PyObject *g_perf_counter; /* time.perf_counter (the clock of _last_sweep) */
static double g_max_age;         /* _SAFE_POINT_MAX_AGE_S */
/* (hot_registry_configured and hot_concrete, set by configure_registry too, are in _hot_common.c.) */

enum { KIND_BACKGROUND = 1, KIND_SAFE_POINTS = 2 };

typedef struct {
    PyObject_HEAD
    PyObject *registry; /* its owner (a cycle through registry.safe_point, collected by the GC) */
    PyObject *slow;     /* the Python safe point: every case but the common ones */
    int kind;
    vectorcallfunc vectorcall;
} SafePoint;

/* getattr(obj, name) as a C long long; -1 with an error set on failure. */
static int
attr_ll(PyObject *obj, PyObject *name, long long *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    *out = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
set_ll(PyObject *obj, PyObject *name, long long value)
{
    PyObject *v = PyLong_FromLongLong(value);
    if (v == NULL)
        return -1;
    int r = PyObject_SetAttr(obj, name, v);
    Py_DECREF(v);
    return r;
}

typedef struct {
    PyObject *arr; /* borrowed from the pending list */
    long long nb;
} Pending;

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
                                : PyDict_CheckExact(t->owned) && PyDict_CheckExact(t->pinned)
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

/* The registry's counters (SessionStats' allocated, freed, live and peak bytes). */
typedef struct {
    long long allocated, freed, live, peak;
} Counts;

static int
get_counts(PyObject *reg, Counts *c)
{
    return attr_ll(reg, s_allocated, &c->allocated) < 0 || attr_ll(reg, s_freed, &c->freed) < 0
                   || attr_ll(reg, s_live_bytes, &c->live) < 0 || attr_ll(reg, s_peak_bytes, &c->peak) < 0
               ? -1
               : 0;
}

static int
set_counts(PyObject *reg, const Counts *c)
{
    return set_ll(reg, s_allocated, c->allocated) < 0 || set_ll(reg, s_freed, c->freed) < 0
                   || set_ll(reg, s_live_bytes, c->live) < 0 || set_ll(reg, s_peak_bytes, c->peak) < 0
               ? -1
               : 0;
}

/* OwnershipRegistry.sweep(collect=False, donated=False), under the
 * registry's lock taken without waiting: pending arrays that only the
 * pending list references are dropped (counted allocated and freed), the
 * others entered into the owned table; then owned arrays that only their
 * entry references are freed. 1: done; 0: not done (the lock is busy, the
 * registry closed, a size not measured yet: nothing changed); -1: error. */
static int
sweep_common(PyObject *reg, int kind)
{
    int result;
    PyObject *lock, *collect_at = NULL, *dead = NULL, *now = NULL;
    Tables t = {NULL, NULL, NULL};
    Counts c;
    Pending *batch = NULL;
    long long idle, dropped_bytes = 0, added = 0, dropped = 0;
    if ((result = hot_lock_nowait(reg, &lock)) <= 0)
        return result;
    if ((result = get_tables(reg, &t)) <= 0)
        goto done;
    result = 0;
    if ((collect_at = PyObject_GetAttr(reg, s_collect_at)) == NULL) {
        result = -1;
        goto done;
    }
    if (collect_at != Py_None && !PyLong_Check(collect_at))
        goto done;
    Py_ssize_t n = PyList_GET_SIZE(t.pending);
    if (n > 0 && (batch = PyMem_Malloc((size_t)n * sizeof(Pending))) == NULL) {
        PyErr_NoMemory();
        result = -1;
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* sizes first: nothing changes unless all are known */
        PyObject *arr = PyList_GET_ITEM(t.pending, i);
        PyObject *aval = PyObject_GetAttr(arr, s_aval);
        if (aval == NULL) {
            PyErr_Clear();
            goto done;
        }
        PyObject *nb = PyDict_GetItemWithError(hot_nbytes_cache, aval);
        Py_DECREF(aval);
        if (nb == NULL || !PyLong_CheckExact(nb)) {
            if (PyErr_Occurred())
                PyErr_Clear();
            goto done; /* a size not measured yet: the Python sweep measures it */
        }
        batch[i].arr = arr;
        batch[i].nb = PyLong_AsLongLong(nb);
    }
    if (get_counts(reg, &c) < 0 || attr_ll(reg, s_sweep_at_idle, &idle) < 0
        || (now = PyObject_CallNoArgs(g_perf_counter)) == NULL) {
        result = -1;
        goto done;
    }
    /* From here on the registry changes: errors are reported, the state stays consistent. */
    result = 1;
    for (Py_ssize_t i = 0; i < n; i++) { /* _enter_pending(sweeping=True) */
        PyObject *arr = batch[i].arr;
        if (Py_REFCNT(arr) == 1) { /* only the pending list: the caller let it go */
            dropped++;
            dropped_bytes += batch[i].nb;
            continue;
        }
        PyObject *key = PyLong_FromVoidPtr(arr); /* id(arr) */
        if (key == NULL) {
            result = -1;
            break;
        }
        int known = PyDict_Contains(t.owned, key);
        if (known == 0)
            known = PyDict_Contains(t.pinned, key);
        if (known == 0) {
            PyObject *nb = PyLong_FromLongLong(batch[i].nb);
            PyObject *entry = nb == NULL ? NULL : PyTuple_Pack(2, arr, nb);
            Py_XDECREF(nb);
            known = entry == NULL ? -1 : PyDict_SetItem(t.owned, key, entry);
            Py_XDECREF(entry);
            if (known == 0) {
                c.live += batch[i].nb;
                added++;
            }
        }
        Py_DECREF(key);
        if (known < 0) {
            result = -1;
            break;
        }
    }
    if (result < 0)
        goto done; /* out of memory mid-way: the Python sweep will find the pending arrays again */
    c.allocated += added + dropped;
    c.freed += dropped;
    if (c.live + dropped_bytes > c.peak) /* they were live until now */
        c.peak = c.live + dropped_bytes;
    int pressure = 0;
    if (collect_at != Py_None) {
        long long limit = PyLong_AsLongLong(collect_at);
        if (limit == -1 && PyErr_Occurred()) {
            result = -1;
            goto done;
        }
        pressure = c.live > limit;
    }
    if (n > 0 && PyList_SetSlice(t.pending, 0, n, NULL) < 0) { /* the last references of the dropped ones */
        result = -1;
        goto done;
    }
    Py_ssize_t entered = PyDict_GET_SIZE(t.owned), survivors = entered;
    if (entered > 0) { /* owned arrays that only their entry references */
        if ((dead = PyList_New(0)) == NULL) {
            result = -1;
            goto done;
        }
        Py_ssize_t pos = 0;
        PyObject *key, *entry;
        while (PyDict_Next(t.owned, &pos, &key, &entry)) {
            if (PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 2
                && Py_REFCNT(PyTuple_GET_ITEM(entry, 0)) == 1 && Py_REFCNT(entry) == 1
                && PyList_Append(dead, key) < 0) {
                result = -1;
                goto done;
            }
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(dead); i++) {
            key = PyList_GET_ITEM(dead, i);
            entry = PyDict_GetItemWithError(t.owned, key);
            if (entry == NULL) {
                if (PyErr_Occurred()) {
                    result = -1;
                    goto done;
                }
                continue;
            }
            long long nb = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1));
            if (nb == -1 && PyErr_Occurred()) {
                result = -1;
                goto done;
            }
            if (PyDict_DelItem(t.owned, key) < 0) { /* the last reference: its buffer is freed */
                result = -1;
                goto done;
            }
            c.live -= nb;
            c.freed++;
        }
        survivors = PyDict_GET_SIZE(t.owned);
    }
    long long sweep_at;
    if (entered == 0) { /* nothing owned after entering: as sweep()'s early return */
        pressure = 0;
        sweep_at = idle;
    }
    else if (kind == KIND_BACKGROUND)
        sweep_at = survivors > 4 ? survivors : 4;
    else
        sweep_at = survivors / 4 > 2 ? survivors / 4 : 2;
    if (set_counts(reg, &c) < 0 || PyObject_SetAttr(reg, s_last_sweep, now) < 0
        || (pressure && PyObject_SetAttr(reg, s_pressure, Py_True) < 0)
        || (entered == 0 && PyObject_SetAttr(reg, s_pressure, Py_False) < 0)
        || set_ll(reg, s_sweep_at, sweep_at) < 0)
        result = -1;
done:
    PyMem_Free(batch);
    drop_tables(&t);
    Py_XDECREF(collect_at);
    Py_XDECREF(dead);
    Py_XDECREF(now);
    return hot_unlock(lock, result);
}

static PyObject *
safepoint_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SafePoint *self = (SafePoint *)op;
    PyObject *reg = self->registry;
    if (PyVectorcall_NARGS(nargsf) != 0 || kwnames != NULL || !hot_registry_configured)
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    int pressure = hot_attr_true(reg, s_pressure);
    if (pressure < 0)
        return NULL;
    if (!pressure) {
        PyObject *pending = PyObject_GetAttr(reg, hot_s_pending);
        if (pending == NULL)
            return NULL;
        Py_ssize_t n = PyList_Check(pending) ? PyList_GET_SIZE(pending) : -1;
        Py_DECREF(pending);
        long long sweep_at;
        if (n < 0 || attr_ll(reg, s_sweep_at, &sweep_at) < 0) {
            PyErr_Clear();
            return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
        }
        if (n < sweep_at) { /* not due by count */
            if (self->kind == KIND_BACKGROUND)
                Py_RETURN_NONE;
            PyObject *owned = PyObject_GetAttr(reg, s_owned);
            if (owned == NULL)
                return NULL;
            int has_owned = PyObject_IsTrue(owned);
            Py_DECREF(owned);
            if (has_owned < 0)
                return NULL;
            if (!has_owned && n == 0)
                Py_RETURN_NONE; /* nothing to sweep */
            PyObject *last = PyObject_GetAttr(reg, s_last_sweep);
            PyObject *now = last == NULL ? NULL : PyObject_CallNoArgs(g_perf_counter);
            double age = now == NULL ? 0.0 : PyFloat_AsDouble(now) - PyFloat_AsDouble(last);
            Py_XDECREF(last);
            Py_XDECREF(now);
            if (PyErr_Occurred())
                return NULL;
            if (age <= g_max_age)
                Py_RETURN_NONE; /* nor by age */
        }
        else {
            int r = sweep_common(reg, self->kind);
            if (r < 0)
                return NULL;
            if (r)
                Py_RETURN_NONE;
        }
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *
safepoint_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *registry, *slow;
    int kind;
    static char *kwlist[] = {"registry", "slow", "kind", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOi:SafePoint", kwlist, &registry, &slow, &kind))
        return NULL;
    if (kind != KIND_BACKGROUND && kind != KIND_SAFE_POINTS) {
        PyErr_SetString(PyExc_ValueError, "SafePoint: kind must be 1 (IN_BACKGROUND) or 2 (ON_SAFE_POINTS)");
        return NULL;
    }
    SafePoint *self = (SafePoint *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(registry);
    self->registry = registry;
    Py_INCREF(slow);
    self->slow = slow;
    self->kind = kind;
    self->vectorcall = safepoint_vectorcall;
    return (PyObject *)self;
}

static int
safepoint_traverse(SafePoint *self, visitproc visit, void *arg)
{
    Py_VISIT(self->registry);
    Py_VISIT(self->slow);
    return 0;
}

static int
safepoint_clear(SafePoint *self)
{
    Py_CLEAR(self->registry);
    Py_CLEAR(self->slow);
    return 0;
}

static void
safepoint_dealloc(SafePoint *self)
{
    PyObject_GC_UnTrack(self);
    safepoint_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef safepoint_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(SafePoint, slow), READONLY, "the Python safe point (the reference path)"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(SafePoint, vectorcall), READONLY, NULL},
    {NULL},
};

static PyTypeObject SafePointType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "jaxsess._core.runtime._hot.SafePoint",
    .tp_doc = "An ownership registry's safe point: its trigger and the sweep's common case in C.",
    .tp_basicsize = sizeof(SafePoint),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = safepoint_new,
    .tp_dealloc = (destructor)safepoint_dealloc,
    .tp_traverse = (traverseproc)safepoint_traverse,
    .tp_clear = (inquiry)safepoint_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(SafePoint, vectorcall),
    .tp_members = safepoint_members,
};

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
    Counts c;
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
            known = PyDict_Contains(t.owned, id);
        if (known != 0) {
            result = known < 0 ? -1 : 0;
            goto done;
        }
    }
    long long total = PyLong_AsLongLong(PyTuple_GET_ITEM(sizes, 2));
    if ((total == -1 && PyErr_Occurred()) || get_counts(reg, &c) < 0) {
        result = -1;
        goto done;
    }
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
    if (set_counts(reg, &c) < 0)
        result = -1;
done:
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
    PyObject *nbytes_cache, *nbytes_of_cache, *perf_counter, *concrete;
    double max_age;
    static char *kwlist[] = {"nbytes_cache", "nbytes_of_cache", "perf_counter", "max_age", "concrete", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOdO:configure_registry", kwlist, &nbytes_cache, &nbytes_of_cache,
                                     &perf_counter, &max_age, &concrete))
        return NULL;
    if (!PyDict_Check(nbytes_cache) || !PyDict_Check(nbytes_of_cache) || !PyCallable_Check(perf_counter)
        || !PyAnySet_Check(concrete)) {
        PyErr_SetString(PyExc_TypeError, "configure_registry: nbytes_cache and nbytes_of_cache must be dicts, "
                                         "perf_counter callable, concrete a set");
        return NULL;
    }
    Py_INCREF(nbytes_of_cache);
    Py_XSETREF(g_nbytes_of_cache, nbytes_of_cache);
    Py_INCREF(concrete);
    Py_XSETREF(hot_concrete, concrete);
    Py_INCREF(nbytes_cache);
    Py_XSETREF(hot_nbytes_cache, nbytes_cache);
    Py_INCREF(perf_counter);
    Py_XSETREF(g_perf_counter, perf_counter);
    g_max_age = max_age;
    hot_registry_configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef registry_methods[] = {
    {"configure_registry", (PyCFunction)(void (*)(void))configure_registry, METH_VARARGS | METH_KEYWORDS,
     "configure_registry(*, nbytes_cache, nbytes_of_cache, perf_counter, max_age, concrete): what SafePoint, "
     "swap_pinned and WrapCall use (concrete: the set of concrete jax.Array types); until it is called they "
     "call the Python code."},
    {"swap_pinned", (PyCFunction)(void (*)(void))swap_common, METH_FASTCALL,
     "swap_pinned(registry, olds, news) -> bool: OwnershipRegistry.swap_pinned's common case (every old array "
     "deleted, fresh new ones of cached sizes, nothing pending); False: not that case, nothing changed."},
    {NULL, NULL, 0, NULL},
};

/* SafePoint, configure_registry and swap_pinned into the module; 0, or -1 with an error set. */
int
hot_registry_init(PyObject *module)
{
    HOT_INTERN(s_allocated, "_allocated");
    HOT_INTERN(s_aval, "aval");
    HOT_INTERN(s_collect_at, "_collect_at");
    HOT_INTERN(s_freed, "_freed");
    HOT_INTERN(s_is_deleted, "is_deleted");
    HOT_INTERN(s_last_sweep, "_last_sweep");
    HOT_INTERN(s_live_bytes, "_live_bytes");
    HOT_INTERN(s_owned, "_owned");
    HOT_INTERN(s_peak_bytes, "_peak_bytes");
    HOT_INTERN(s_pinned, "_pinned");
    HOT_INTERN(s_pressure, "_pressure");
    HOT_INTERN(s_sweep_at, "_sweep_at");
    HOT_INTERN(s_sweep_at_idle, "_sweep_at_idle");
    if (PyType_Ready(&SafePointType) < 0 || hot_add_type(module, "SafePoint", &SafePointType) < 0)
        return -1;
    return PyModule_AddFunctions(module, registry_methods);
}
