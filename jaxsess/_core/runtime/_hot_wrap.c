/*
 * _hot_wrap.c: the wrapper session.wrap and session.jit return for a fresh
 * callable (a jax.jit call: its outputs are new arrays), in C, part of the
 * extension module jaxsess._core.runtime._hot (see _hot.h). The twin of the
 * `call` function in BaseSession._wrap (_session.py) with fresh=True and
 * donates=False, which is the reference and the fallback: WrapCall runs its
 * positional calls step by step as `call` does, and owns the outputs as
 * OwnershipRegistry.own_one / own_fresh (_resources.py) do: one weak
 * reference per array whose callback is the registry's _died, its size from
 * the aval cache, entered under the registry's lock with the same allocated,
 * live and peak counts and the same budget pressure. Anything else calls the
 * Python code: keyword arguments, a closed session (it raises), a leaf that
 * is not a concrete jax.Array, an aval not in the size cache, a busy lock,
 * and the registries of ON_SESSION_CLOSE (their strong holding; _session.py
 * makes no WrapCall for them).
 *
 * What a call costs on top of the jitted call is kept to C operations: the
 * registry's attributes are read and written in its instance dict (held
 * since the WrapCall was made), its lock's methods and its containers
 * (_owned, _dead, _died, _pending, inflight: never rebound) are bound once,
 * the safe point is called only when it has something to do
 * (hot_safe_point_idle), and the leaves of an output made of exact dicts,
 * lists, tuples and None are collected directly (the same leaves as
 * jax.tree_util.tree_leaves, whose order ownership does not depend on);
 * any other pytree is flattened by jax.tree_util.tree_leaves.
 */
#include "_hot.h"

static PyObject *s_inflight, *s_died, *s_owned, *s_allocated, *s_live_bytes, *s_peak_bytes, *s_freed;
static PyObject *s_collect_at, *s_wake, *s_set, *s_aval, *s_own_fresh, *s_lock, *s_release, *s_locked;

#define MAX_DEPTH 64 /* deeper outputs: jax.tree_util.tree_leaves */

/* The last type found in the registry's set of concrete array types (which
 * only grows; a strong reference): a call's leaves are mostly of one type,
 * found without a set lookup. */
static PyTypeObject *g_last_concrete;

/* 1: `tp` is a concrete jax.Array type; 0: not; -1: error. */
static inline int
is_concrete_type(PyTypeObject *tp)
{
    if (tp == g_last_concrete)
        return 1;
    int c = PySet_Contains(hot_concrete, (PyObject *)tp);
    if (c > 0) {
        Py_INCREF(tp);
        Py_XSETREF(g_last_concrete, tp);
    }
    return c;
}

/* d[name], borrowed; NULL with an error set when it is missing. */
static PyObject *
dget(PyObject *d, PyObject *name)
{
    PyObject *v = PyDict_GetItemWithError(d, name);
    if (v == NULL && !PyErr_Occurred())
        PyErr_SetObject(PyExc_AttributeError, name);
    return v;
}

static int
dget_ll(PyObject *d, PyObject *name, long long *out)
{
    PyObject *v = dget(d, name);
    if (v == NULL)
        return -1;
    *out = PyLong_AsLongLong(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
dset_ll(PyObject *d, PyObject *name, long long value)
{
    PyObject *v = PyLong_FromLongLong(value);
    if (v == NULL)
        return -1;
    int r = PyDict_SetItem(d, name, v);
    Py_DECREF(v);
    return r;
}

/* Removes the last occurrence of `me` from `inflight` (list.remove of a
 * multiset: which one does not matter), keeping any exception set. */
static int
leave_inflight(PyObject *inflight, PyObject *me)
{
    int result = 0;
    PyObject *exc = hot_take_exception();
    Py_ssize_t i = PyList_GET_SIZE(inflight);
    while (--i >= 0) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(inflight, i), me, Py_EQ);
        if (eq < 0) {
            result = -1;
            break;
        }
        if (eq) {
            result = PyList_SetSlice(inflight, i, i + 1, NULL);
            break;
        }
    }
    if (exc != NULL) {
        if (result < 0)
            PyErr_Clear();
        hot_give_exception(exc);
    }
    return result;
}

/* registry.own_fresh(out, producer): the Python reference. */
static int
own_python(PyObject *reg, PyObject *out, PyObject *producer)
{
    PyObject *r = PyObject_CallMethodObjArgs(reg, s_own_fresh, out, producer, NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* Appends the leaves of `tree` to `acc` when it is made of exact dicts,
 * lists and tuples, None and concrete arrays: 1 done, 0 not such a tree
 * (acc partly filled), -1 error. No Python code runs (acc's growth
 * allocates no tracked object), so `tree` cannot change meanwhile. */
static int
collect_leaves(PyObject *tree, PyObject *acc, int depth)
{
    PyTypeObject *tp = Py_TYPE(tree);
    if (tp == &PyTuple_Type || tp == &PyList_Type) {
        if (depth >= MAX_DEPTH)
            return 0;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(tree); i++) {
            int r = collect_leaves(PySequence_Fast_ITEMS(tree)[i], acc, depth + 1);
            if (r <= 0)
                return r;
        }
        return 1;
    }
    if (tp == &PyDict_Type) {
        if (depth >= MAX_DEPTH)
            return 0;
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(tree, &pos, &key, &value)) {
            int r = collect_leaves(value, acc, depth + 1);
            if (r <= 0)
                return r;
        }
        return 1;
    }
    if (tree == Py_None) /* a pytree node without children */
        return 1;
    int c = is_concrete_type(tp);
    if (c <= 0)
        return c;
    return PyList_Append(acc, tree) < 0 ? -1 : 1;
}

/* The registry's counters (SessionStats' allocated, freed, live and peak bytes). */
typedef struct {
    long long allocated, freed, live, peak;
} Counts;

/* Caller holds the lock: OwnershipRegistry._reap, inlined (the entries of
 * arrays that died dropped and counted freed); 1 when something was reaped. */
static int
reap_locked(PyObject *dead, PyObject *owned, Counts *c)
{
    Py_ssize_t nd = PyList_GET_SIZE(dead);
    if (nd == 0)
        return 0;
    /* The first nd refs, read in place (the list holds them; what runs below
     * is dict work on int keys, which runs no Python code), then dropped. */
    long long freed = 0, bytes = 0;
    int rc;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *key = PyLong_FromVoidPtr(PyList_GET_ITEM(dead, i));
        if (key == NULL)
            goto fail;
        PyObject *entry = PyDict_GetItemWithError(owned, key); /* borrowed */
        if (entry == NULL) {
            Py_DECREF(key);
            if (PyErr_Occurred())
                goto fail;
            continue;
        }
        long long nb = PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) > 1 ? PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1))
                                                                            : -1;
        if (nb == -1 && PyErr_Occurred()) {
            Py_DECREF(key);
            goto fail;
        }
        rc = PyDict_DelItem(owned, key);
        Py_DECREF(key);
        if (rc < 0)
            goto fail;
        freed++;
        bytes += nb;
    }
    if (PyList_SetSlice(dead, 0, nd, NULL) < 0)
        return -1;
    c->live -= bytes;
    c->freed += freed;
    return freed != 0;
fail:
    PyList_SetSlice(dead, 0, nd, NULL); /* (an error is set) the batch is dropped, as _reap drops it */
    return -1;
}

/* Caller holds the lock: enters refs[0..n) (the weak references of concrete
 * arrays, their sizes in sizes[0..n)) as own_one/_own do: _reap first when
 * arrays died, then _insert, with _reap's and _insert's budget pressure. */
static int
enter_locked(Wrapper *self, PyObject **refs, PyObject **sizes, Py_ssize_t n, long long total, PyObject *producer)
{
    PyObject *d = self->rdict, *owned = self->owned, *dead = self->dead;
    Counts c, c0;
    if (dget_ll(d, s_allocated, &c.allocated) < 0 || dget_ll(d, s_freed, &c.freed) < 0
        || dget_ll(d, s_live_bytes, &c.live) < 0)
        return -1;
    c.peak = -1; /* read below only when live bytes grow: the peak is never under them */
    PyObject *collect_at = dget(d, s_collect_at);
    if (collect_at == NULL)
        return -1;
    long long at = 0;
    if (collect_at != Py_None && (at = PyLong_AsLongLong(collect_at)) == -1 && PyErr_Occurred())
        return -1;
    c0 = c;
    int reaped = reap_locked(dead, owned, &c);
    if (reaped < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = refs[i];
        PyObject *key = PyLong_FromVoidPtr(r);
        PyObject *entry = key == NULL ? NULL : PyTuple_Pack(3, r, sizes[i], producer);
        int rc = entry == NULL ? -1 : PyDict_SetItem(owned, key, entry);
        Py_XDECREF(key);
        Py_XDECREF(entry);
        if (rc < 0)
            return -1;
    }
    /* _reap's pressure first: lifted once live bytes are back under the budget */
    int pressure = -1;
    if (reaped && collect_at != Py_None && c.live <= at) {
        PyObject *p = dget(d, hot_s_pressure);
        if (p == NULL)
            return -1;
        if ((pressure = PyObject_IsTrue(p)) < 0)
            return -1;
        if (pressure) {
            if (PyDict_SetItem(d, hot_s_pressure, Py_False) < 0)
                return -1;
            pressure = 0;
        }
    }
    c.allocated += n;
    c.live += total;
    if (c.live > c0.live) {
        if (dget_ll(d, s_peak_bytes, &c.peak) < 0)
            return -1;
        c0.peak = c.peak;
        if (c.live > c.peak)
            c.peak = c.live;
    }
    if (dset_ll(d, s_allocated, c.allocated) < 0 || (c.live != c0.live && dset_ll(d, s_live_bytes, c.live) < 0)
        || (c.peak != c0.peak && dset_ll(d, s_peak_bytes, c.peak) < 0)
        || (c.freed != c0.freed && dset_ll(d, s_freed, c.freed) < 0))
        return -1;
    if (collect_at != Py_None && c.live > at) { /* _insert's: the budget exceeded wakes the cleaner */
        if (pressure < 0) {
            PyObject *p = dget(d, hot_s_pressure);
            if (p == NULL || (pressure = PyObject_IsTrue(p)) < 0)
                return -1;
        }
        if (!pressure) {
            if (PyDict_SetItem(d, hot_s_pressure, Py_True) < 0)
                return -1;
            PyObject *wake = dget(d, s_wake);
            PyObject *r = wake == NULL ? NULL : PyObject_CallMethodNoArgs(wake, s_set);
            if (r == NULL)
                return -1;
            Py_DECREF(r);
        }
    }
    return 0;
}

#define STACK_LEAVES 32 /* more leaves: their refs and sizes on the heap */

/* own_one(out) / own_fresh(out) of a fresh call's outputs; 0, or -1 with an error set. */
static int
own_outputs(Wrapper *self, PyObject *out)
{
    PyObject *reg = self->registry, *producer = self->spec, *d = self->rdict;
    PyObject *leaves = NULL, *const *items;
    Py_ssize_t n;
    int c = is_concrete_type(Py_TYPE(out));
    if (c < 0)
        return -1;
    if (c) { /* one array: own_one */
        items = &out;
        n = 1;
    } else {
        if ((leaves = PyList_New(0)) == NULL)
            return -1;
        int got = collect_leaves(out, leaves, 0);
        if (got < 0) {
            Py_DECREF(leaves);
            return -1;
        }
        if (got == 0) { /* another pytree: jax flattens it, and every leaf must be concrete */
            Py_SETREF(leaves, PyObject_CallOneArg(self->fits, out)); /* jax.tree_util.tree_leaves */
            if (leaves == NULL)
                return -1;
            if (!PyList_CheckExact(leaves)) {
                Py_DECREF(leaves);
                return own_python(reg, out, producer);
            }
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(leaves); i++) {
                c = is_concrete_type(Py_TYPE(PyList_GET_ITEM(leaves, i)));
                if (c <= 0) {
                    Py_DECREF(leaves);
                    return c < 0 ? -1 : own_python(reg, out, producer);
                }
            }
        }
        n = PyList_GET_SIZE(leaves);
        items = ((PyListObject *)leaves)->ob_item; /* nothing changes the list below: it is ours */
        if (n == 0) {
            Py_DECREF(leaves);
            return 0;
        }
    }
    PyObject *stack[2 * STACK_LEAVES];
    PyObject **refs = n <= STACK_LEAVES ? stack : PyMem_Calloc((size_t)(2 * n), sizeof(PyObject *));
    if (refs == NULL) {
        Py_XDECREF(leaves);
        PyErr_NoMemory();
        return -1;
    }
    PyObject **sizes = refs + n, *died = NULL;
    Py_ssize_t held = 0, made = 0; /* sizes[0..held) and refs[0..made) hold references */
    int rc = -1;
    long long total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *aval = PyObject_GetAttr(items[i], s_aval);
        if (aval == NULL)
            goto done;
        PyObject *nb = PyDict_GetItemWithError(hot_nbytes_cache, aval); /* borrowed */
        Py_DECREF(aval);
        if (nb == NULL) {
            rc = PyErr_Occurred() ? -1 : own_python(reg, out, producer);
            goto done;
        }
        long long v = PyLong_AsLongLong(nb);
        if (v == -1 && PyErr_Occurred())
            goto done;
        total += v;
        Py_INCREF(nb);
        sizes[held++] = nb;
    }
    died = self->died;
    Py_INCREF(died);
    for (; made < n; made++)
        if ((refs[made] = PyWeakref_NewRef(items[made], died)) == NULL)
            goto done;
    /* the registry's lock: held by another thread, the Python code waits for
     * it; else taken (lock.acquire() without arguments, which costs a
     * fraction of acquire(False)'s argument parsing: it does not wait unless
     * a thread blocked in acquire took it meanwhile, and then waits as the
     * Python code would) */
    PyObject *t = PyObject_CallNoArgs(self->locked);
    int busy = t == NULL ? -1 : PyObject_IsTrue(t);
    Py_XDECREF(t);
    if (busy != 0) {
        rc = busy < 0 ? -1 : own_python(reg, out, producer);
        goto done;
    }
    if ((t = PyObject_CallNoArgs(self->acquire)) == NULL)
        goto done;
    Py_DECREF(t);
    PyObject *closed = PyDict_GetItemWithError(d, hot_s_closed);
    if (closed == Py_False)
        rc = enter_locked(self, refs, sizes, n, total, producer);
    PyObject *exc = hot_take_exception();
    PyObject *r = PyObject_CallNoArgs(self->release);
    if (r == NULL) {
        Py_XDECREF(exc);
        rc = -1;
        goto done;
    }
    Py_DECREF(r);
    hot_give_exception(exc);
    if (closed != Py_False) {
        if (closed == NULL && PyErr_Occurred())
            rc = -1;
        else /* closed, or raced close(): the Python code deletes them and raises */
            rc = own_python(reg, out, producer);
    }
done:
    for (Py_ssize_t i = 0; i < made; i++)
        Py_DECREF(refs[i]);
    for (Py_ssize_t i = 0; i < held; i++)
        Py_DECREF(sizes[i]);
    if (refs != stack)
        PyMem_Free(refs);
    Py_XDECREF(died);
    Py_XDECREF(leaves);
    return rc;
}

static PyObject *
wrapcall_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Wrapper *self = (Wrapper *)op;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!hot_registry_configured || hot_nbytes_cache == NULL || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0))
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    PyObject *d = self->rdict, *inflight = self->inflight;
    Py_INCREF(inflight);
    PyObject *me = PyLong_FromUnsignedLong(PyThread_get_thread_ident()); /* threading.get_ident() */
    if (me == NULL || PyList_Append(inflight, me) < 0) { /* close() waits for this call: its inputs stay valid */
        Py_XDECREF(me);
        Py_DECREF(inflight);
        return NULL;
    }
    PyObject *out = NULL;
    int closed;
    if (self->sdict != NULL) {
        PyObject *c = PyDict_GetItemWithError(self->sdict, hot_s_closed);
        closed = c == NULL ? (PyErr_Occurred() ? -1 : hot_attr_true(self->session, hot_s_closed)) : PyObject_IsTrue(c);
    } else {
        closed = hot_attr_true(self->session, hot_s_closed);
    }
    if (closed == 0) {
        PyObject *c = PyDict_GetItemWithError(d, hot_s_closed);
        closed = c == NULL ? (PyErr_Occurred() ? -1 : 1) : PyObject_IsTrue(c);
    }
    if (closed != 0) {
        if (leave_inflight(inflight, me) == 0 && closed > 0)
            out = PyObject_Vectorcall(self->slow, args, nargsf, kwnames); /* it raises the closed error */
        goto done;
    }
    int idle = hot_safe_point_idle(self->registry, d, self->pending, self->dead);
    if (idle < 0)
        goto leave;
    if (!idle) {
        PyObject *r = PyObject_CallMethodNoArgs(self->registry, hot_s_safe_point);
        if (r == NULL)
            goto leave;
        Py_DECREF(r);
    }
    out = PyObject_Vectorcall(self->fn, args, (size_t)n, NULL);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_Exception)) {
            PyObject *err = hot_take_exception();
            if (err != NULL) {
                PyObject *r = PyObject_CallMethodOneArg(self->session, hot_s_raise_translated, err);
                Py_XDECREF(r); /* it always raises */
                Py_DECREF(err);
                if (r != NULL)
                    PyErr_SetString(PyExc_SystemError, "jaxsess._core.runtime._hot: _raise_translated returned");
            }
        }
        goto leave;
    }
    if (own_outputs(self, out) < 0)
        Py_CLEAR(out);
leave:
    if (leave_inflight(inflight, me) < 0)
        Py_CLEAR(out);
done:
    Py_DECREF(me);
    Py_DECREF(inflight);
    return out;
}

static PyObject *
wrapcall_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow, *session, *registry, *fn, *producer, *tree_leaves;
    static char *kwlist[] = {"slow", "session", "registry", "fn", "producer", "tree_leaves", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOUO:WrapCall", kwlist, &slow, &session, &registry, &fn,
                                     &producer, &tree_leaves))
        return NULL;
    if (!PyCallable_Check(slow) || !PyCallable_Check(fn) || !PyCallable_Check(tree_leaves)) {
        PyErr_SetString(PyExc_TypeError, "WrapCall: slow, fn and tree_leaves must be callables");
        return NULL;
    }
    PyObject *rdict = PyObject_GenericGetDict(registry, NULL);
    if (rdict == NULL)
        return NULL;
    /* The registry's lock and containers, bound once: OwnershipRegistry never
     * rebinds them after __init__ (its comments say so). */
    PyObject *lock = PyDict_GetItemWithError(rdict, s_lock); /* borrowed, as the four below */
    PyObject *owned = lock == NULL ? NULL : PyDict_GetItemWithError(rdict, s_owned);
    PyObject *dead = owned == NULL ? NULL : PyDict_GetItemWithError(rdict, hot_s_dead);
    PyObject *died = dead == NULL ? NULL : PyDict_GetItemWithError(rdict, s_died);
    PyObject *pending = died == NULL ? NULL : PyDict_GetItemWithError(rdict, hot_s_pending);
    PyObject *inflight = pending == NULL ? NULL : PyDict_GetItemWithError(rdict, s_inflight);
    if (inflight == NULL || !PyDict_CheckExact(owned) || !PyList_CheckExact(dead) || !PyList_CheckExact(pending)
        || !PyList_CheckExact(inflight)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "WrapCall: the registry lacks _lock, _owned, _dead, _died, _pending or "
                                             "inflight, or they are not a dict and lists");
        Py_DECREF(rdict);
        return NULL;
    }
    PyObject *acquire = PyObject_GetAttr(lock, hot_s_acquire);
    PyObject *release = acquire == NULL ? NULL : PyObject_GetAttr(lock, s_release);
    PyObject *locked = release == NULL ? NULL : PyObject_GetAttr(lock, s_locked);
    Wrapper *self = locked == NULL ? NULL
                                   : hot_wrapper_new(type, wrapcall_vectorcall, slow, session, registry, fn, 0);
    if (self == NULL) {
        Py_DECREF(rdict);
        Py_XDECREF(acquire);
        Py_XDECREF(release);
        Py_XDECREF(locked);
        return NULL;
    }
    Py_INCREF(producer);
    self->spec = producer;
    Py_INCREF(tree_leaves);
    self->fits = tree_leaves;
    self->rdict = rdict;
    Py_INCREF(lock);
    self->lock = lock;
    self->acquire = acquire;
    self->release = release;
    self->locked = locked;
    Py_INCREF(owned);
    self->owned = owned;
    Py_INCREF(dead);
    self->dead = dead;
    Py_INCREF(died);
    self->died = died;
    Py_INCREF(pending);
    self->pending = pending;
    Py_INCREF(inflight);
    self->inflight = inflight;
    self->sdict = PyObject_GenericGetDict(session, NULL); /* NULL (no __dict__): getattr */
    if (self->sdict == NULL)
        PyErr_Clear();
    return (PyObject *)self;
}

static PyObject *
wrapcall_get(PyObject *self, PyObject *obj, PyObject *type)
{
    /* a function: bound when stored on a class, as the Python function it replaces */
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *
wrapcall_get_fn(Wrapper *self, void *closure)
{
    Py_INCREF(self->fn);
    return self->fn;
}

static int
wrapcall_set_fn(Wrapper *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_fn must be a callable");
        return -1;
    }
    Py_INCREF(value);
    Py_SETREF(self->fn, value);
    return 0;
}

static PyGetSetDef wrapcall_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"_fn", (getter)wrapcall_get_fn, (setter)wrapcall_set_fn,
     "the fresh callable positional calls call (replaceable, for tests; _python's own is its closure's)", NULL},
    {NULL},
};

static PyMemberDef wrapcall_members[] = {
    {"_python", T_OBJECT, offsetof(Wrapper, slow), READONLY, "the Python function (the reference path)"},
    {"__dictoffset__", T_PYSSIZET, offsetof(Wrapper, dict), READONLY, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Wrapper, weaklist), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Wrapper, vectorcall), READONLY, NULL},
    {NULL},
};

static PyTypeObject WrapCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "jaxsess._core.runtime._hot.WrapCall",
    .tp_doc = "A session.wrap/session.jit function of a fresh callable: positional calls run in C; others call "
              "the Python function.",
    .tp_basicsize = sizeof(Wrapper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = wrapcall_new,
    .tp_dealloc = (destructor)hot_wrapper_dealloc,
    .tp_traverse = (traverseproc)hot_wrapper_traverse,
    .tp_clear = (inquiry)hot_wrapper_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_descr_get = wrapcall_get,
    .tp_dictoffset = offsetof(Wrapper, dict),
    .tp_weaklistoffset = offsetof(Wrapper, weaklist),
    .tp_members = wrapcall_members,
    .tp_getset = wrapcall_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* WrapCall into the module; 0, or -1 with an error set. */
int
hot_wrap_init(PyObject *module)
{
    HOT_INTERN(s_inflight, "inflight");
    HOT_INTERN(s_died, "_died");
    HOT_INTERN(s_owned, "_owned");
    HOT_INTERN(s_allocated, "_allocated");
    HOT_INTERN(s_live_bytes, "_live_bytes");
    HOT_INTERN(s_peak_bytes, "_peak_bytes");
    HOT_INTERN(s_freed, "_freed");
    HOT_INTERN(s_collect_at, "_collect_at");
    HOT_INTERN(s_wake, "_wake");
    HOT_INTERN(s_lock, "_lock");
    HOT_INTERN(s_release, "release");
    HOT_INTERN(s_locked, "locked");
    HOT_INTERN(s_set, "set");
    HOT_INTERN(s_aval, "aval");
    HOT_INTERN(s_own_fresh, "own_fresh");
    if (PyType_Ready(&WrapCallType) < 0)
        return -1;
    return hot_add_type(module, "WrapCall", &WrapCallType);
}
