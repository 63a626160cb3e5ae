/*
 * _hot_jit.c: the function session.jit returns, in C, part of the
 * extension module jaxsess._core.runtime._hot (see _hot.h). The twin of the
 * `call` function in BaseSession.jit (_session.py), which is the reference
 * and the fallback: SessionJit runs its positional calls, step by step as
 * `call` does; keyword arguments or a closed session call the Python
 * function (a SessionJit's _python). It shares hot_adopt and
 * hot_call_safe_point (_hot_common.c) with the cache hit.
 */
#include "_hot.h"

static PyObject *s_inflight;

/* -- SessionJit: the function session.jit returns ------------------------------------
 *
 * BaseSession.jit's `call`, for positional calls: the calling thread is
 * registered in the registry's in-flight list (close() waits for it), the
 * closed checks, the safe point, the jitted call (an Exception goes through
 * the session's _raise_translated), and the adoption of the
 * result (adopt_outputs' inlined case for one fresh array, else
 * adopt_outputs itself). A call with keyword arguments, or on a closed
 * session, calls the Python function (the reference). */

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

static PyObject *
sessionjit_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Wrapper *self = (Wrapper *)op;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!hot_registry_configured || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0))
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
    if (hot_adopt(self->registry, out, args, n, self->by_buffer) < 0)
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
sessionjit_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow, *session, *registry, *jitted;
    int by_buffer;
    static char *kwlist[] = {"slow", "session", "registry", "jitted", "by_buffer", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOp:SessionJit", kwlist, &slow, &session, &registry, &jitted,
                                     &by_buffer))
        return NULL;
    return (PyObject *)hot_wrapper_new(type, sessionjit_vectorcall, slow, session, registry, jitted, by_buffer);
}

static PyObject *
sessionjit_get(PyObject *self, PyObject *obj, PyObject *type)
{
    /* a function: bound when stored on a class, as the Python function it replaces */
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *
sessionjit_get_jitted(Wrapper *self, void *closure)
{
    Py_INCREF(self->fn);
    return self->fn;
}

static int
sessionjit_set_jitted(Wrapper *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_jitted must be a callable");
        return -1;
    }
    Py_INCREF(value);
    Py_SETREF(self->fn, value);
    return 0;
}

static PyGetSetDef sessionjit_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"_jitted", (getter)sessionjit_get_jitted, (setter)sessionjit_set_jitted,
     "the jitted function positional calls call (replaceable, for tests)", NULL},
    {NULL},
};

static PyMemberDef sessionjit_members[] = {
    {"_python", T_OBJECT, offsetof(Wrapper, slow), READONLY, "the Python function (the reference path)"},
    {"__dictoffset__", T_PYSSIZET, offsetof(Wrapper, dict), READONLY, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Wrapper, weaklist), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Wrapper, vectorcall), READONLY, NULL},
    {NULL},
};

static PyTypeObject SessionJitType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "jaxsess._core.runtime._hot.SessionJit",
    .tp_doc = "A session.jit function: positional calls run in C; others call the wrapped Python function.",
    .tp_basicsize = sizeof(Wrapper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = sessionjit_new,
    .tp_dealloc = (destructor)hot_wrapper_dealloc,
    .tp_traverse = (traverseproc)hot_wrapper_traverse,
    .tp_clear = (inquiry)hot_wrapper_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_descr_get = sessionjit_get,
    .tp_dictoffset = offsetof(Wrapper, dict),
    .tp_weaklistoffset = offsetof(Wrapper, weaklist),
    .tp_members = sessionjit_members,
    .tp_getset = sessionjit_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* SessionJit into the module; 0, or -1 with an error set. */
int
hot_jit_init(PyObject *module)
{
    HOT_INTERN(s_inflight, "inflight");
    if (PyType_Ready(&SessionJitType) < 0)
        return -1;
    return hot_add_type(module, "SessionJit", &SessionJitType);
}
