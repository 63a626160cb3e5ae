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
 */
#include "_hot.h"

static PyObject *s_inflight, *s_died, *s_dead, *s_owned, *s_reap, *s_allocated, *s_live_bytes, *s_peak_bytes;
static PyObject *s_freed, *s_collect_at, *s_pressure, *s_wake, *s_set, *s_aval, *s_own_fresh;

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

/* obj.name += delta (a Python int); 0, or -1 with an error set. Stores the
 * new value in *now when now is not NULL. */
static int
add_ll(PyObject *obj, PyObject *name, long long delta, long long *now)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    long long x = PyLong_AsLongLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    x += delta;
    if (now != NULL)
        *now = x;
    PyObject *n = PyLong_FromLongLong(x);
    if (n == NULL)
        return -1;
    int r = PyObject_SetAttr(obj, name, n);
    Py_DECREF(n);
    return r;
}

/* Caller holds the lock: OwnershipRegistry._reap, inlined (the entries of
 * arrays that died dropped and counted freed, the budget's pressure lifted
 * once live bytes are back under it). */
static int
reap_locked(PyObject *reg, PyObject *owned)
{
    PyObject *dead = PyObject_GetAttr(reg, s_dead);
    if (dead == NULL)
        return -1;
    if (!PyList_CheckExact(dead)) {
        Py_DECREF(dead);
        PyObject *r = PyObject_CallMethodNoArgs(reg, s_reap);
        Py_XDECREF(r);
        return r == NULL ? -1 : 0;
    }
    Py_ssize_t nd = PyList_GET_SIZE(dead);
    if (nd == 0) {
        Py_DECREF(dead);
        return 0;
    }
    PyObject *batch = PyList_GetSlice(dead, 0, nd);
    int rc = batch == NULL ? -1 : PyList_SetSlice(dead, 0, nd, NULL);
    Py_DECREF(dead);
    if (rc < 0) {
        Py_XDECREF(batch);
        return -1;
    }
    long long freed = 0, bytes = 0;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *key = PyLong_FromVoidPtr(PyList_GET_ITEM(batch, i));
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
    Py_DECREF(batch);
    if (freed == 0)
        return 0;
    long long live;
    if (add_ll(reg, s_live_bytes, -bytes, &live) < 0 || add_ll(reg, s_freed, freed, NULL) < 0)
        return -1;
    int pressure = hot_attr_true(reg, s_pressure);
    if (pressure <= 0)
        return pressure;
    PyObject *collect_at = PyObject_GetAttr(reg, s_collect_at);
    if (collect_at == NULL)
        return -1;
    if (collect_at == Py_None) {
        Py_DECREF(collect_at);
        return 0;
    }
    long long at = PyLong_AsLongLong(collect_at);
    Py_DECREF(collect_at);
    if (at == -1 && PyErr_Occurred())
        return -1;
    return live <= at ? PyObject_SetAttr(reg, s_pressure, Py_False) : 0;
fail:
    Py_DECREF(batch);
    return -1;
}

/* Caller holds the lock: enters `leaves` (concrete arrays; refs and sizes
 * made) as _insert does, after _reap when arrays died. */
static int
enter_locked(PyObject *reg, PyObject *refs, PyObject *sizes, long long total, PyObject *producer)
{
    PyObject *owned = PyObject_GetAttr(reg, s_owned);
    if (owned == NULL)
        return -1;
    if (!PyDict_Check(owned)) {
        Py_DECREF(owned);
        PyErr_SetString(PyExc_TypeError, "jaxsess._core.runtime._hot: the registry's _owned is not a dict");
        return -1;
    }
    if (reap_locked(reg, owned) < 0) {
        Py_DECREF(owned);
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(refs);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyList_GET_ITEM(refs, i);
        PyObject *key = PyLong_FromVoidPtr(r);
        PyObject *entry = key == NULL ? NULL : PyTuple_Pack(3, r, PyList_GET_ITEM(sizes, i), producer);
        int rc = entry == NULL ? -1 : PyDict_SetItem(owned, key, entry);
        Py_XDECREF(key);
        Py_XDECREF(entry);
        if (rc < 0) {
            Py_DECREF(owned);
            return -1;
        }
    }
    Py_DECREF(owned);
    long long live, peak;
    if (add_ll(reg, s_allocated, n, NULL) < 0 || add_ll(reg, s_live_bytes, total, &live) < 0
        || add_ll(reg, s_peak_bytes, 0, &peak) < 0)
        return -1;
    if (live > peak) {
        PyObject *v = PyLong_FromLongLong(live);
        int rc = v == NULL ? -1 : PyObject_SetAttr(reg, s_peak_bytes, v);
        Py_XDECREF(v);
        if (rc < 0)
            return -1;
    }
    PyObject *collect_at = PyObject_GetAttr(reg, s_collect_at);
    if (collect_at == NULL)
        return -1;
    if (collect_at != Py_None) {
        long long at = PyLong_AsLongLong(collect_at);
        Py_DECREF(collect_at);
        if (at == -1 && PyErr_Occurred())
            return -1;
        if (live > at) {
            int pressure = hot_attr_true(reg, s_pressure);
            if (pressure < 0)
                return -1;
            if (!pressure) {
                if (PyObject_SetAttr(reg, s_pressure, Py_True) < 0)
                    return -1;
                PyObject *wake = PyObject_GetAttr(reg, s_wake);
                PyObject *r = wake == NULL ? NULL : PyObject_CallMethodNoArgs(wake, s_set);
                Py_XDECREF(wake);
                if (r == NULL)
                    return -1;
                Py_DECREF(r);
            }
        }
    } else {
        Py_DECREF(collect_at);
    }
    return 0;
}

/* own_one(out) / own_fresh(out) of a fresh call's outputs; 0, or -1 with an error set. */
static int
own_outputs(Wrapper *self, PyObject *out)
{
    PyObject *reg = self->registry, *producer = self->spec;
    PyObject *leaves;
    int one = PySet_Contains(hot_concrete, (PyObject *)Py_TYPE(out));
    if (one < 0)
        return -1;
    if (one) {
        leaves = PyList_New(1);
        if (leaves == NULL)
            return -1;
        Py_INCREF(out);
        PyList_SET_ITEM(leaves, 0, out);
    } else {
        leaves = PyObject_CallOneArg(self->fits, out); /* jax.tree_util.tree_leaves */
        if (leaves == NULL)
            return -1;
        if (!PyList_CheckExact(leaves)) {
            Py_DECREF(leaves);
            return own_python(reg, out, producer);
        }
    }
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    if (n == 0) {
        Py_DECREF(leaves);
        return 0;
    }
    PyObject *refs = NULL, *sizes = NULL, *died = NULL, *lock = NULL;
    int rc = -1;
    long long total = 0;
    for (Py_ssize_t i = 0; i < n; i++) { /* every leaf concrete, every size cached: else the Python path */
        PyObject *leaf = PyList_GET_ITEM(leaves, i);
        int c = PySet_Contains(hot_concrete, (PyObject *)Py_TYPE(leaf));
        if (c <= 0) {
            rc = c < 0 ? -1 : own_python(reg, out, producer);
            goto done;
        }
    }
    if ((sizes = PyList_New(n)) == NULL || (refs = PyList_New(n)) == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *aval = PyObject_GetAttr(PyList_GET_ITEM(leaves, i), s_aval);
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
        PyList_SET_ITEM(sizes, i, nb);
    }
    if ((died = PyObject_GetAttr(reg, s_died)) == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyWeakref_NewRef(PyList_GET_ITEM(leaves, i), died);
        if (r == NULL)
            goto done;
        PyList_SET_ITEM(refs, i, r);
    }
    int got = hot_lock_nowait(reg, &lock);
    if (got < 0)
        goto done;
    if (got == 0) { /* busy: the Python code waits for it */
        rc = own_python(reg, out, producer);
        goto done;
    }
    int closed = hot_attr_true(reg, hot_s_closed);
    if (closed != 0) {
        rc = hot_unlock(lock, -1);
        lock = NULL;
        if (closed > 0) /* raced close(): the Python code deletes them and raises */
            rc = own_python(reg, out, producer);
        goto done;
    }
    rc = hot_unlock(lock, enter_locked(reg, refs, sizes, total, producer));
    lock = NULL;
done:
    Py_XDECREF(died);
    Py_XDECREF(refs);
    Py_XDECREF(sizes);
    Py_DECREF(leaves);
    return rc;
}

static PyObject *
wrapcall_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Wrapper *self = (Wrapper *)op;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!hot_registry_configured || hot_nbytes_cache == NULL || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0))
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    PyObject *inflight = PyObject_GetAttr(self->registry, s_inflight);
    if (inflight == NULL)
        return NULL;
    if (!PyList_CheckExact(inflight)) {
        Py_DECREF(inflight);
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    }
    PyObject *me = PyLong_FromUnsignedLong(PyThread_get_thread_ident()); /* threading.get_ident() */
    if (me == NULL || PyList_Append(inflight, me) < 0) { /* close() waits for this call: its inputs stay valid */
        Py_XDECREF(me);
        Py_DECREF(inflight);
        return NULL;
    }
    PyObject *out = NULL;
    int closed = hot_attr_true(self->session, hot_s_closed);
    if (closed == 0)
        closed = hot_attr_true(self->registry, hot_s_closed);
    if (closed != 0) {
        if (leave_inflight(inflight, me) == 0 && closed > 0)
            out = PyObject_Vectorcall(self->slow, args, nargsf, kwnames); /* it raises the closed error */
        goto done;
    }
    if (hot_call_safe_point(self->registry) < 0)
        goto leave;
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
    Wrapper *self = hot_wrapper_new(type, wrapcall_vectorcall, slow, session, registry, fn, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(producer);
    self->spec = producer;
    Py_INCREF(tree_leaves);
    self->fits = tree_leaves;
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
    HOT_INTERN(s_dead, "_dead");
    HOT_INTERN(s_owned, "_owned");
    HOT_INTERN(s_reap, "_reap");
    HOT_INTERN(s_allocated, "_allocated");
    HOT_INTERN(s_live_bytes, "_live_bytes");
    HOT_INTERN(s_peak_bytes, "_peak_bytes");
    HOT_INTERN(s_freed, "_freed");
    HOT_INTERN(s_collect_at, "_collect_at");
    HOT_INTERN(s_pressure, "_pressure");
    HOT_INTERN(s_wake, "_wake");
    HOT_INTERN(s_set, "set");
    HOT_INTERN(s_aval, "aval");
    HOT_INTERN(s_own_fresh, "own_fresh");
    if (PyType_Ready(&WrapCallType) < 0)
        return -1;
    return hot_add_type(module, "WrapCall", &WrapCallType);
}
