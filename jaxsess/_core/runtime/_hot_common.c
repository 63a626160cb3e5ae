/*
 * _hot_common.c: what the C twins of jaxsess._core.runtime._hot share (see
 * _hot.h): truth of an attribute, a tuple of a vector, the exception kept
 * across a call, the adoption of a fresh result (adopt_outputs' common case,
 * OwnershipRegistry.adopt_outputs in _resources.py), the registry's safe
 * point called, its lock taken without waiting, and the Wrapper object of
 * HotRunner and WrapCall. None of it is a twin of its own; each is a step
 * of the Python functions the other files twin.
 */
#include "_hot.h"

/* Set by configure_registry (_hot_registry.c). */
PyObject *hot_concrete;          /* the registry's set of concrete jax.Array types */
int hot_registry_configured;
/* OwnershipRegistry's safe-point functions (_noop, _assist_at_safe_point,
 * _sweep_at_safe_point) and _REAP_AT: what hot_call_safe_point may skip. */
static PyObject *g_sp_noop, *g_sp_assist, *g_sp_sweep;
static Py_ssize_t g_reap_at;

/* Interned attribute names more than one file uses. */
PyObject *hot_s_acquire;
PyObject *hot_s_closed;
PyObject *hot_s_pending;
PyObject *hot_s_raise_translated;

PyObject *hot_s_dead, *hot_s_pressure, *hot_s_safe_point;

static PyObject *s_adopt_outputs, *s_adopter, *s_by_buffer, *s_lock, *s_reject_late, *s_release;

/* -1: error; else whether getattr(obj, name) is true. */
int
hot_attr_true(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

PyObject *
hot_as_tuple(PyObject *const *vals, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(vals[i]);
        PyTuple_SET_ITEM(t, i, vals[i]);
    }
    return t;
}

/* The exception being raised, normalized, with its traceback (a new
 * reference; the error indicator is cleared), or NULL if none. */
PyObject *
hot_take_exception(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (type == NULL)
        return NULL;
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL && value != NULL)
        PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return value;
#endif
}

/* Raises `exc` again (steals the reference; NULL: nothing). */
void
hot_give_exception(PyObject *exc)
{
    if (exc == NULL)
        return;
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(exc);
#else
    PyErr_Restore((PyObject *)Py_TYPE(exc), exc, PyException_GetTraceback(exc));
    Py_INCREF(Py_TYPE(exc));
#endif
}

/* A concrete array no weak reference points to yet (so in no table of the
 * registry: it keys its owned arrays by their weak references, and pinned
 * ones are an input's or the state's, which the caller has excluded) owned
 * at once by the registry's _adopter, the WrapCall whose call owns outputs
 * as own_one does (weak strategies): 1 done, 0 not this way (no adopter, or
 * a weak reference exists: the pending list), -1 error. */
static int
adopt_fresh(PyObject *registry, PyObject *out)
{
    Py_ssize_t off = Py_TYPE(out)->tp_weaklistoffset;
    if (off <= 0 || *(PyObject **)((char *)out + off) != NULL)
        return 0;
    PyObject *d = PyObject_GenericGetDict(registry, NULL);
    if (d == NULL)
        return -1;
    PyObject *adopter = PyDict_GetItemWithError(d, s_adopter); /* borrowed: the registry's dict holds it */
    Py_DECREF(d);
    if (adopter == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!hot_wrap_check(adopter))
        return 0;
    return hot_wrap_own(adopter, out) < 0 ? -1 : 1;
}

/* adopt_outputs(out, args, by_buffer=...) with its one-fresh-array case inlined. */
int
hot_adopt(PyObject *registry, PyObject *out, PyObject *const *args, Py_ssize_t n, int by_buffer)
{
    int concrete = by_buffer ? 0 : PySet_Contains(hot_concrete, (PyObject *)Py_TYPE(out));
    if (concrete < 0)
        return -1;
    if (concrete) {
        for (Py_ssize_t i = 0; i < n; i++)
            if (args[i] == out)
                return 0; /* a feed handed back: the caller's */
        int fresh = adopt_fresh(registry, out);
        if (fresh != 0)
            return fresh < 0 ? -1 : 0;
        PyObject *pending = PyObject_GetAttr(registry, hot_s_pending);
        if (pending == NULL)
            return -1;
        int rc = PyList_Check(pending) ? PyList_Append(pending, out) : -1;
        Py_DECREF(pending);
        if (rc < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "jaxsess._core.runtime._hot: the registry's pending list is not a list");
            return -1;
        }
        int closed = hot_attr_true(registry, hot_s_closed);
        if (closed < 0)
            return -1;
        if (closed) { /* raced close(): reject_late deletes it and raises */
            PyObject *r = PyObject_CallMethodNoArgs(registry, s_reject_late);
            Py_XDECREF(r);
            return -1;
        }
        return 0;
    }
    PyObject *t = hot_as_tuple(args, n);
    if (t == NULL)
        return -1;
    PyObject *fn = PyObject_GetAttr(registry, s_adopt_outputs);
    if (fn == NULL) {
        Py_DECREF(t);
        return -1;
    }
    PyObject *kw = PyTuple_Pack(1, s_by_buffer);
    PyObject *argv[3] = {out, t, by_buffer ? Py_True : Py_False};
    PyObject *r = kw == NULL ? NULL : PyObject_Vectorcall(fn, argv, 2, kw);
    Py_XDECREF(kw);
    Py_DECREF(fn);
    Py_DECREF(t);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

int
hot_configure_safe_points(PyObject *noop, PyObject *assist, PyObject *sweep, Py_ssize_t reap_at)
{
    Py_INCREF(noop);
    Py_XSETREF(g_sp_noop, noop);
    Py_INCREF(assist);
    Py_XSETREF(g_sp_assist, assist);
    Py_INCREF(sweep);
    Py_XSETREF(g_sp_sweep, sweep);
    g_reap_at = reap_at;
    return 0;
}

/* Whether the safe point that `d` (the registry's instance dict) names has
 * nothing to do now, decided as the Python safe points decide it: 1 (skip
 * the call), 0 (call it: something pending, memory pressure, dead entries
 * to prune under ON_SAFE_POINTS, or a safe point that is not the registry's
 * own, such as a test's replacement), -1 (error). `pending` and `dead`: the
 * registry's lists when the caller holds them, else NULL (read from `d`). */
int
hot_safe_point_idle(PyObject *reg, PyObject *d, PyObject *pending, PyObject *dead)
{
    if (g_sp_noop == NULL)
        return 0;
    PyObject *sp = PyDict_GetItemWithError(d, hot_s_safe_point); /* borrowed */
    if (sp == NULL || !PyMethod_Check(sp) || PyMethod_GET_SELF(sp) != reg)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *f = PyMethod_GET_FUNCTION(sp);
    if (f == g_sp_noop)
        return 1;
    int sweep = f == g_sp_sweep;
    if (!sweep && f != g_sp_assist)
        return 0;
    /* _assist_at_safe_point: `if self._pending: ...; if self._pressure: ...`;
     * _sweep_at_safe_point: `if self._pending or self._pressure or len(self._dead) >= _REAP_AT: ...` */
    if (pending == NULL)
        pending = PyDict_GetItemWithError(d, hot_s_pending);
    PyObject *pressure = pending == NULL ? NULL : PyDict_GetItemWithError(d, hot_s_pressure);
    if (pressure == NULL || !PyList_CheckExact(pending))
        return PyErr_Occurred() ? -1 : 0;
    if (PyList_GET_SIZE(pending) != 0 || pressure != Py_False)
        return 0;
    if (sweep) {
        if (dead == NULL)
            dead = PyDict_GetItemWithError(d, hot_s_dead);
        if (dead == NULL || !PyList_CheckExact(dead))
            return PyErr_Occurred() ? -1 : 0;
        return PyList_GET_SIZE(dead) < g_reap_at;
    }
    return 1;
}

/* registry.safe_point(), unless it has nothing to do (hot_safe_point_idle). */
int
hot_call_safe_point(PyObject *registry)
{
    PyObject *d = PyObject_GenericGetDict(registry, NULL);
    if (d == NULL)
        return -1;
    int idle = hot_safe_point_idle(registry, d, NULL, NULL);
    Py_DECREF(d);
    if (idle != 0)
        return idle < 0 ? -1 : 0;
    PyObject *r = PyObject_CallMethodNoArgs(registry, hot_s_safe_point);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* -- Wrapper (_hot.h): the object of HotRunner (_hot.c) and WrapCall (_hot_wrap.c) ----- */

Wrapper *
hot_wrapper_new(PyTypeObject *type, vectorcallfunc call, PyObject *slow, PyObject *session, PyObject *registry,
            PyObject *fn, int by_buffer)
{
    Wrapper *self = (Wrapper *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(slow);
    self->slow = slow;
    Py_INCREF(session);
    self->session = session;
    Py_INCREF(registry);
    self->registry = registry;
    Py_INCREF(fn);
    self->fn = fn;
    self->by_buffer = by_buffer;
    self->vectorcall = call;
    return self;
}

int
hot_wrapper_traverse(Wrapper *self, visitproc visit, void *arg)
{
    Py_VISIT(self->slow);
    Py_VISIT(self->session);
    Py_VISIT(self->registry);
    Py_VISIT(self->fn);
    Py_VISIT(self->spec);
    Py_VISIT(self->fits);
    Py_VISIT(self->rebuild);
    Py_VISIT(self->dict);
    Py_VISIT(self->rdict);
    Py_VISIT(self->lock);
    Py_VISIT(self->acquire);
    Py_VISIT(self->release);
    Py_VISIT(self->locked);
    Py_VISIT(self->owned);
    Py_VISIT(self->dead);
    Py_VISIT(self->died);
    Py_VISIT(self->pending);
    Py_VISIT(self->inflight);
    Py_VISIT(self->batches);
    Py_VISIT(self->sdict);
    return 0;
}

int
hot_wrapper_clear(Wrapper *self)
{
    Py_CLEAR(self->slow);
    Py_CLEAR(self->session);
    Py_CLEAR(self->registry);
    Py_CLEAR(self->fn);
    Py_CLEAR(self->spec);
    Py_CLEAR(self->fits);
    Py_CLEAR(self->rebuild);
    Py_CLEAR(self->dict);
    Py_CLEAR(self->rdict);
    Py_CLEAR(self->lock);
    Py_CLEAR(self->acquire);
    Py_CLEAR(self->release);
    Py_CLEAR(self->locked);
    Py_CLEAR(self->owned);
    Py_CLEAR(self->dead);
    Py_CLEAR(self->died);
    Py_CLEAR(self->pending);
    Py_CLEAR(self->inflight);
    Py_CLEAR(self->batches);
    Py_CLEAR(self->sdict);
    return 0;
}

void
hot_wrapper_dealloc(Wrapper *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weaklist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    hot_wrapper_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Takes the registry's lock without waiting: 1 taken (*lock: the lock, a
 * new reference), 0 busy (the Python code waits for it), -1 error. */
int
hot_lock_nowait(PyObject *reg, PyObject **lock)
{
    PyObject *r;
    if ((*lock = PyObject_GetAttr(reg, s_lock)) == NULL)
        return -1;
    int got = (r = PyObject_CallMethodOneArg(*lock, hot_s_acquire, Py_False)) == NULL ? -1 : PyObject_IsTrue(r);
    Py_XDECREF(r);
    if (got <= 0)
        Py_CLEAR(*lock);
    return got;
}

/* Releases a lock that hot_lock_nowait took, and drops it, also while an error
 * is set (it stays set); returns result, or -1 when the release failed. */
int
hot_unlock(PyObject *lock, int result)
{
    PyObject *exc = hot_take_exception();
    PyObject *r = PyObject_CallMethodNoArgs(lock, s_release);
    Py_DECREF(lock);
    if (r == NULL) {
        Py_XDECREF(exc);
        return -1;
    }
    Py_DECREF(r);
    hot_give_exception(exc);
    return result;
}

/* -- the module's parts ---------------------------------------------------------------- */

/* Adds `type` (ready) to the module as `name`; 0, or -1 with an error set. */
int
hot_add_type(PyObject *module, const char *name, PyTypeObject *type)
{
    Py_INCREF(type);
    if (PyModule_AddObject(module, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

/* Interns the names above and this file's own; 0, or -1 with an error set. */
int
hot_common_init(void)
{
    HOT_INTERN(hot_s_acquire, "acquire");
    HOT_INTERN(hot_s_closed, "_closed");
    HOT_INTERN(hot_s_pending, "_pending");
    HOT_INTERN(hot_s_raise_translated, "_raise_translated");
    HOT_INTERN(s_adopt_outputs, "adopt_outputs");
    HOT_INTERN(s_adopter, "_adopter");
    HOT_INTERN(s_by_buffer, "by_buffer");
    HOT_INTERN(s_lock, "_lock");
    HOT_INTERN(s_reject_late, "reject_late");
    HOT_INTERN(s_release, "release");
    HOT_INTERN(hot_s_safe_point, "safe_point");
    HOT_INTERN(hot_s_dead, "_dead");
    HOT_INTERN(hot_s_pressure, "_pressure");
    return 0;
}
