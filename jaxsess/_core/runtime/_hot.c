/*
 * jaxsess._core.runtime._hot: the plan-cache hit of Session.run and of
 * make_callable's functions in C, a faster twin of its one Python copy in
 * _graph_session.py, which is the reference and the fallback. Function by
 * function, the same steps in the same order (each Python docstring lists
 * them; the C functions mark them with the same numbers):
 *
 *   Python (_graph_session.py)                 C (this file)
 *   Session.run's first lines + Session._hit   hot_run (HotRun: Session.run itself)
 *   make_callable's runner                     hotrunner_vectorcall (HotRunner)
 *   _run_entry                                 run_entry
 *     _Entry.feed_values                         entry_feed_values (+ feeds_fit: fit_spec as data)
 *     _call_flat / _flat_failed                  call_flat
 *     Session._call's stateful branch            state_call (from the entry's step)
 *     host_value, to_host, Session._adopt        host_value, finish, adopt
 *
 * A C function declines -- calls the Python function it twins, with the
 * same arguments -- whenever the call is not its common case, always before
 * anything changed: HotRun where _hit returns _MISS (and in a multi-process
 * session, or on objects of unexpected types); HotRunner on the closed
 * session, the wrong arity or keyword arguments (the Python runner raises
 * or ignores them); run_entry for variants to free, an entry that is not a
 * stateless plan's flat function (direct_one, direct) or a stateful plan on
 * the default device (step), or a state slot not set yet (the first run of
 * a random op creates its counter in Python). The only step C does
 * differently is a shortcut with the same effect: hot_run remembers the key
 * it moved to the LRU end last (Session._last_hit, which every Python change
 * of the plan cache resets) and, given that key again, skips the lookup and
 * the move. tests/test_hot_path.py drives random sequences of runs, feeds,
 * fetch structures, errors and evictions through both and requires the same
 * results, counters and registry state.
 *
 * The ownership registry's helpers those paths call have C twins here too,
 * each of one Python method, with the same contract (the Python code is the
 * reference; anything but the common case calls it): OwnershipRegistry's
 * safe point (SafePoint) and swap_pinned (swap_pinned, of _swap_pinned's
 * first branch), in _resources.py; and session.jit's positional calls
 * (SessionJit, of BaseSession.jit's `call` in _session.py), which share
 * adopt and call_safe_point.
 *
 * JAXSESS_C_HOT_PATH=0 (read at import, _native.py) turns all of it off.
 * Per call, the Python paths stay reachable: Session.run.__wrapped__ (the
 * Python method), a HotRunner's __wrapped__ (the runner), a SafePoint's
 * __wrapped__, a SessionJit's _python.
 *
 * Why C: at about 20 us per call on a 2-core machine, the Python frames,
 * attribute loads and tuple building of those hot paths cost 5-7 us, which
 * is the whole of the gap to raw jax.jit that issue 15's targets leave; a
 * training step's Python path cost 10-20 us more than its plan's call.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

/* Set by configure(); the hot paths fall back to Python until then. */
static PyObject *g_np_array;    /* numpy.array */
static PyObject *g_ndarray;     /* numpy.ndarray */
static PyObject *g_tensor;      /* jaxsess Tensor */
static PyObject *g_host_data;   /* HOST_GRAPHS.data (a set of weak references): the session's graph in it -> Python */
static PyObject *g_concrete;    /* the registry's set of concrete jax.Array types */
static PyObject *g_flat_failed; /* _flat_failed(session, fn, vals, err) */
static PyObject *g_operation;   /* jaxsess Operation */
static PyObject *g_defer;       /* _signals.defer */
static PyObject *g_deliver;     /* _signals.deliver */
static PyObject *g_to_host;     /* _fetch.to_host */
static PyObject *g_step_failed; /* _step_failed(fn, donated, kept, feeds, err) */
static PyObject *g_feed_values; /* _fetch.feed_values(feeds, values) */
static PyObject *g_run_entry;   /* _graph_session._run_entry (the reference of run_entry) */
/* The cache entry's (_Entry's) field indices. */
static Py_ssize_t g_i_plan, g_i_positions, g_i_fits, g_i_spec, g_i_direct, g_i_direct_one, g_i_by_buffer, g_i_step,
    g_i_feeds;
static Py_ssize_t g_i_max;
static int g_configured;

static PyObject *s_closed, *s_drop_variants, *s_multiprocess, *s_plans, *s_registry, *s_device_fetches, *s_last_hit;
static PyObject *s_safe_point, *s_move_to_end, *s_pending, *s_reject_late, *s_adopt_outputs;
static PyObject *s_dtype, *s_shape, *s_ndim, *s_by_buffer;
static PyObject *s_graph, *s_state, *s_state_lock, *s_adopt, *s_swap_pinned_py, *s_raise_translated;
static PyObject *g_empty_tuple;

/* -1: error; else whether getattr(obj, name) is true. */
static int
attr_true(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* Whether vals fit the plan with no conversion: 1 yes, 0 no, -1 error.
 * spec: a tuple of (dtype, dims) per feed (a dimension None: any size), or
 * None (then fits(vals)). */
static int
feeds_fit(PyObject *spec, PyObject *fits, PyObject *const *vals, Py_ssize_t n)
{
    if (spec == Py_None) {
        PyObject *t = PyTuple_New(n);
        if (t == NULL)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_INCREF(vals[i]);
            PyTuple_SET_ITEM(t, i, vals[i]);
        }
        PyObject *r = PyObject_CallOneArg(fits, t);
        Py_DECREF(t);
        if (r == NULL)
            return -1;
        int ok = PyObject_IsTrue(r);
        Py_DECREF(r);
        return ok;
    }
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = vals[i];
        if ((PyObject *)Py_TYPE(v) != g_ndarray)
            return 0;
        PyObject *want = PyTuple_GET_ITEM(spec, i);
        PyObject *dtype = PyObject_GetAttr(v, s_dtype);
        if (dtype == NULL)
            return -1;
        int same = dtype == PyTuple_GET_ITEM(want, 0);
        Py_DECREF(dtype);
        if (!same)
            return 0;
        PyObject *shape = PyObject_GetAttr(v, s_shape), *dims = PyTuple_GET_ITEM(want, 1);
        if (shape == NULL)
            return -1;
        int eq;
        if (PyTuple_CheckExact(shape) && PyTuple_CheckExact(dims)) { /* the rank, and each dimension not None */
            Py_ssize_t rank = PyTuple_GET_SIZE(dims);
            eq = PyTuple_GET_SIZE(shape) == rank;
            for (Py_ssize_t k = 0; eq == 1 && k < rank; k++) {
                PyObject *d = PyTuple_GET_ITEM(dims, k);
                if (d != Py_None)
                    eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(shape, k), d, Py_EQ);
            }
        }
        else
            eq = PyObject_RichCompareBool(shape, dims, Py_EQ);
        Py_DECREF(shape);
        if (eq != 1)
            return eq;
    }
    return 1;
}

static PyObject *
as_tuple(PyObject *const *vals, Py_ssize_t n)
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
static PyObject *
take_exception(void)
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
static void
give_exception(PyObject *exc)
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

/* adopt_outputs(out, args, by_buffer=...) with its one-fresh-array case inlined. */
static int
adopt(PyObject *registry, PyObject *out, PyObject *const *args, Py_ssize_t n, int by_buffer)
{
    int concrete = by_buffer ? 0 : PySet_Contains(g_concrete, (PyObject *)Py_TYPE(out));
    if (concrete < 0)
        return -1;
    if (concrete) {
        for (Py_ssize_t i = 0; i < n; i++)
            if (args[i] == out)
                return 0; /* a feed handed back: the caller's */
        PyObject *pending = PyObject_GetAttr(registry, s_pending);
        if (pending == NULL)
            return -1;
        int rc = PyList_Check(pending) ? PyList_Append(pending, out) : -1;
        Py_DECREF(pending);
        if (rc < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "jaxsess._core.runtime._hot: the registry's pending list is not a list");
            return -1;
        }
        int closed = attr_true(registry, s_closed);
        if (closed < 0)
            return -1;
        if (closed) { /* raced close(): reject_late deletes it and raises */
            PyObject *r = PyObject_CallMethodNoArgs(registry, s_reject_late);
            Py_XDECREF(r);
            return -1;
        }
        return 0;
    }
    PyObject *t = as_tuple(args, n);
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

/* _fetch.host_value(out): bytes unchanged, else np.array(out), a NumPy
 * scalar for a 0-d value (a new reference). */
static PyObject *
host_value(PyObject *out)
{
    if (PyBytes_CheckExact(out)) { /* a string scalar: already a host value */
        Py_INCREF(out);
        return out;
    }
    PyObject *a = PyObject_CallOneArg(g_np_array, out);
    if (a == NULL)
        return NULL;
    PyObject *ndim = PyObject_GetAttr(a, s_ndim);
    if (ndim == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    int nonzero = PyObject_IsTrue(ndim);
    Py_DECREF(ndim);
    if (nonzero < 0) {
        Py_DECREF(a);
        return NULL;
    }
    if (nonzero)
        return a;
    PyObject *scalar = PyObject_GetItem(a, g_empty_tuple);
    Py_DECREF(a);
    return scalar;
}

/* fn(*vals), its error handed to _flat_failed as _call_flat does. */
static PyObject *
call_flat(PyObject *session, PyObject *fn, PyObject *const *vals, Py_ssize_t n)
{
    PyObject *out = PyObject_Vectorcall(fn, vals, (size_t)n, NULL);
    if (out != NULL || !PyErr_ExceptionMatches(PyExc_Exception))
        return out; /* KeyboardInterrupt and friends: raised where they land */
    PyObject *err = take_exception();
    if (err == NULL)
        return NULL;
    PyObject *t = as_tuple(vals, n);
    if (t == NULL) {
        Py_DECREF(err);
        return NULL;
    }
    out = PyObject_CallFunctionObjArgs(g_flat_failed, session, fn, t, err, NULL);
    Py_DECREF(t);
    Py_DECREF(err);
    return out;
}

/* Step 2 of _run_entry: fn(*vals) (direct_one), its error handed to
 * _flat_failed, then the device result adopted by the registry or its host
 * copy. */
static PyObject *
call_and_finish(PyObject *session, PyObject *registry, PyObject *fn, PyObject *const *vals, Py_ssize_t n,
                int device, int by_buffer)
{
    PyObject *out = call_flat(session, fn, vals, n);
    if (out == NULL)
        return NULL;
    if (device) {
        if (adopt(registry, out, vals, n, by_buffer) < 0)
            goto fail;
        return out;
    }
    PyObject *h = host_value(out);
    Py_DECREF(out);
    return h;
fail:
    Py_DECREF(out);
    return NULL;
}

static int
call_safe_point(PyObject *registry)
{
    PyObject *r = PyObject_CallMethodNoArgs(registry, s_safe_point);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* Whether the session's graph holds host ops (strings, tf.data iterators:
 * it is in HOST_GRAPHS, whose weak references hash and compare as the
 * graphs): 1 yes, 0 no, -1 error. As _host_run.needs_host_pass, which the
 * Python path then asks. */
static int
graph_on_host(PyObject *session)
{
    if (PySet_GET_SIZE(g_host_data) == 0)
        return 0;
    PyObject *graph = PyObject_GetAttr(session, s_graph);
    if (graph == NULL)
        return -1;
    PyObject *ref = PyWeakref_NewRef(graph, NULL);
    Py_DECREF(graph);
    if (ref == NULL)
        return -1;
    int r = PySet_Contains(g_host_data, ref);
    Py_DECREF(ref);
    return r;
}

/* Whether a fetch's leaves (n of them) are the very objects of `last` (a
 * tuple), in the same order. */
static int
same_leaves(PyObject *last, PyObject *const *leaves, Py_ssize_t n)
{
    if (!PyTuple_CheckExact(last) || PyTuple_GET_SIZE(last) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyTuple_GET_ITEM(last, i) != leaves[i])
            return 0;
    return 1;
}

static PyObject *run_entry(PyObject *session, PyObject *registry, PyObject *entry, PyObject *const *vals,
                           Py_ssize_t n, int device, int single, PyObject *rebuild);

/* Step 4 of Session._hit and the feed step of make_callable's runner:
 * _Entry.feed_values, the feed values as the plan takes them. vals[0..n)
 * are taken as they are when they fit (spec: the entry's fit_spec; None:
 * its fits predicate): *conv is NULL. Else *conv is the list
 * feed_values(entry.feeds, vals) returns (converted and checked: TF1's
 * feed errors are raised there), of n items. 0: done; -1: error. */
static int
entry_feed_values(PyObject *entry, PyObject *spec, PyObject *fits, PyObject *const *vals, Py_ssize_t n,
                  PyObject **conv)
{
    *conv = NULL;
    int fit = feeds_fit(spec, fits, vals, n);
    if (fit != 0)
        return fit < 0 ? -1 : 0;
    PyObject *t = as_tuple(vals, n);
    if (t == NULL)
        return -1;
    PyObject *r = PyObject_CallFunctionObjArgs(g_feed_values, PyTuple_GET_ITEM(entry, g_i_feeds), t, NULL);
    Py_DECREF(t);
    if (r == NULL)
        return -1;
    if (!PyList_CheckExact(r) || PyList_GET_SIZE(r) != n) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_SystemError, "jaxsess._core.runtime._hot: feed_values did not return a list of the feeds");
        return -1;
    }
    *conv = r;
    return 0;
}

/* Session.run(fetches, feed_dict): run's first lines (the plain fetches'
 * leaves) and Session._hit, its plan-cache hit, step by step as the Python
 * method (see its docstring). Returns 0 when it declines (nothing done: the
 * caller runs the Python method, which takes the call from its start), 1
 * when done (*result: the value, or NULL with an exception set).
 *
 * It declines exactly where _hit returns _MISS, and also, before any
 * change, in a multi-process session (its host fetches are gathered in
 * Python) and on objects of unexpected types.
 *
 * The session's _last_hit, (leaves, feed keys, entry, registry, device
 * fetches), is the key this path moved to the LRU end last (steps 3 and 6);
 * every Python change of the plan cache (a store, an eviction, another plan
 * moved to the end, close) sets it to None. A call with those fetch leaves
 * and the same feed keys (the same objects, in the same order) therefore
 * has that plan-cache key, its entry is still cached and already last:
 * steps 3 and 6 have nothing to do (no key to build, hash and compare,
 * nothing to move). */
static int
hot_run(PyObject *session, PyObject *fetches, PyObject *feed, PyObject **result)
{
    int r, same = 0, single, device;
    PyObject *keys = NULL, *key = NULL, *plans = NULL, *entry = NULL, *registry = NULL;
    PyObject *last = NULL, *leaves_t = NULL, *conv = NULL;
    PyObject *const *leaves;
    PyObject *vbuf[8], **vals = vbuf;
    Py_ssize_t nf, n = 0, nvals = 0;
    *result = NULL;
    /* run's first lines: the plain fetches */
    PyObject *ftype = (PyObject *)Py_TYPE(fetches);
    if (ftype == g_tensor || ftype == g_operation) {
        single = 1;
        leaves = &fetches;
        nf = 1;
    }
    else if (PyList_CheckExact(fetches) && (nf = PyList_GET_SIZE(fetches)) > 0) {
        single = 0;
        for (Py_ssize_t i = 0; i < nf; i++) {
            PyObject *t = (PyObject *)Py_TYPE(PyList_GET_ITEM(fetches, i));
            if (t != g_tensor && t != g_operation)
                return 0;
        }
        if ((leaves_t = PyList_AsTuple(fetches)) == NULL) /* a snapshot: Python code may run below */
            return 1;
        leaves = ((PyTupleObject *)leaves_t)->ob_item;
    }
    else
        return 0;
    /* 1. the feed keys and values: none, or a dict's */
    if (feed != Py_None && !PyDict_CheckExact(feed))
        goto miss;
    /* 2. the session open, its graph with no host pass */
    if ((r = attr_true(session, s_closed)) != 0 || (r = graph_on_host(session)) != 0)
        goto out_r;
    if ((last = PyObject_GetAttr(session, s_last_hit)) == NULL)
        goto error;
    n = feed == Py_None ? 0 : PyDict_GET_SIZE(feed);
    if (n > (Py_ssize_t)(sizeof(vbuf) / sizeof(vbuf[0])) && (vals = PyMem_New(PyObject *, n)) == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    /* The feed values (new references in vals), and whether the keys are the last hit's. */
    int last_ok = PyTuple_CheckExact(last) && PyTuple_GET_SIZE(last) == 5
                  && same_leaves(PyTuple_GET_ITEM(last, 0), leaves, nf);
    PyObject *last_keys = last_ok ? PyTuple_GET_ITEM(last, 1) : NULL;
    same = last_keys != NULL && PyTuple_CheckExact(last_keys) && PyTuple_GET_SIZE(last_keys) == n;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (nvals < n && PyDict_Next(feed, &pos, &k, &v)) { /* runs no Python code */
        if (same && PyTuple_GET_ITEM(last_keys, nvals) != k)
            same = 0;
        Py_INCREF(v);
        vals[nvals++] = v;
    }
    if (nvals != n)
        goto miss;
    /* 3. the plan-cache entry of the key (leaves, feed keys) */
    if (same) { /* a session the C path ran (so not multi-process: set at __init__), this entry */
        entry = PyTuple_GET_ITEM(last, 2);
        registry = PyTuple_GET_ITEM(last, 3);
        device = PyTuple_GET_ITEM(last, 4) == Py_True;
        Py_INCREF(entry);
        Py_INCREF(registry);
    }
    else {
        if ((r = attr_true(session, s_multiprocess)) != 0)
            goto out_r;
        if ((keys = PyTuple_New(n)) == NULL)
            goto error;
        pos = 0;
        for (Py_ssize_t i = 0; i < n && PyDict_Next(feed, &pos, &k, &v); i++) {
            Py_INCREF(k);
            PyTuple_SET_ITEM(keys, i, k);
        }
        /* A list with a leaf twice gives a key that is never cached (Fetches
         * keeps each leaf once): it misses, and the Python path runs it. */
        if ((leaves_t == NULL && (leaves_t = as_tuple(leaves, nf)) == NULL)
            || (key = PyTuple_Pack(2, leaves_t, keys)) == NULL)
            goto error;
        plans = PyObject_GetAttr(session, s_plans);
        if (plans == NULL)
            goto error;
        if (!PyDict_Check(plans))
            goto miss;
        entry = PyDict_GetItemWithError(plans, key);
        if (entry == NULL) {
            if (PyErr_Occurred())
                goto error;
            goto miss;
        }
        Py_INCREF(entry); /* another thread may evict it while Python code runs */
        if ((registry = PyObject_GetAttr(session, s_registry)) == NULL || (device = attr_true(session, s_device_fetches)) < 0)
            goto error;
    }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) <= g_i_max)
        goto miss;
    /* 4. the feed values as the plan takes them */
    if (entry_feed_values(entry, PyTuple_GET_ITEM(entry, g_i_spec), PyTuple_GET_ITEM(entry, g_i_fits), vals, n, &conv) < 0)
        goto error;
    /* 5. the registry's safe point */
    if (call_safe_point(registry) < 0)
        goto error;
    /* 6. the entry moved to the LRU end, and remembered as the last hit (_hit forgets it) */
    if (!same) {
        PyObject *moved = PyObject_CallMethodOneArg(plans, s_move_to_end, key);
        if (moved == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_KeyError)) /* KeyError: evicted meanwhile by another thread */
                goto error;
            PyErr_Clear();
            if (PyObject_SetAttr(session, s_last_hit, Py_None) < 0)
                goto error;
        }
        else {
            Py_DECREF(moved);
            PyObject *hit = PyTuple_Pack(5, leaves_t, keys, entry, registry, device ? Py_True : Py_False);
            if (hit == NULL || PyObject_SetAttr(session, s_last_hit, hit) < 0) {
                Py_XDECREF(hit);
                goto error;
            }
            Py_DECREF(hit);
        }
    }
    /* 7. run_entry */
    *result = run_entry(session, registry, entry, conv == NULL ? vals : ((PyListObject *)conv)->ob_item, n, device,
                        single, NULL);
    r = 1;
    goto out;
miss:
    r = 0;
    goto out;
error:
    r = 1;
    goto out;
out_r:
    if (r > 0)
        r = 0; /* closed, host pass, multi-process: the Python method */
    else
        r = 1; /* an attribute error: report it */
out:
    while (nvals > 0)
        Py_DECREF(vals[--nvals]);
    if (vals != vbuf)
        PyMem_Free(vals);
    Py_XDECREF(conv);
    Py_XDECREF(last);
    Py_XDECREF(leaves_t);
    Py_XDECREF(keys);
    Py_XDECREF(key);
    Py_XDECREF(plans);
    Py_XDECREF(entry);
    Py_XDECREF(registry);
    return r;
}

/* -- HotRun: Session.run as a method descriptor -------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *slow; /* the Python function: self.run(...) when this is not the common case */
    PyObject *dict;
    vectorcallfunc vectorcall;
} HotRun;

static PyObject *
hotrun_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    HotRun *self = (HotRun *)op;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (g_configured && kwnames == NULL && (nargs == 2 || nargs == 3)) {
        PyObject *result;
        if (hot_run(args[0], args[1], nargs == 3 ? args[2] : Py_None, &result))
            return result;
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *
hotrun_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "HotRun takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "HotRun", 1, 1, &slow))
        return NULL;
    if (!PyCallable_Check(slow)) {
        PyErr_SetString(PyExc_TypeError, "HotRun: the wrapped function must be callable");
        return NULL;
    }
    HotRun *self = (HotRun *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(slow);
    self->slow = slow;
    self->vectorcall = hotrun_vectorcall;
    return (PyObject *)self;
}

static PyObject *
hotrun_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static int
hotrun_traverse(HotRun *self, visitproc visit, void *arg)
{
    Py_VISIT(self->slow);
    Py_VISIT(self->dict);
    return 0;
}

static int
hotrun_clear(HotRun *self)
{
    Py_CLEAR(self->slow);
    Py_CLEAR(self->dict);
    return 0;
}

static void
hotrun_dealloc(HotRun *self)
{
    PyObject_GC_UnTrack(self);
    hotrun_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef hotrun_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(HotRun, dict), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(HotRun, vectorcall), READONLY, NULL},
    {NULL},
};

static PyGetSetDef dict_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyTypeObject HotRunType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "jaxsess._core.runtime._hot.HotRun",
    .tp_doc = "A method whose cache hits run in C; everything else calls the wrapped Python function.",
    .tp_basicsize = sizeof(HotRun),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_METHOD_DESCRIPTOR | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = hotrun_new,
    .tp_dealloc = (destructor)hotrun_dealloc,
    .tp_traverse = (traverseproc)hotrun_traverse,
    .tp_clear = (inquiry)hotrun_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(HotRun, vectorcall),
    .tp_descr_get = hotrun_get,
    .tp_dictoffset = offsetof(HotRun, dict),
    .tp_members = hotrun_members,
    .tp_getset = dict_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* -- Wrapper: a Python callable with its common calls in C --------------------------
 *
 * The object of HotRunner (make_callable) and SessionJit (session.jit):
 * the Python callable it stands for (the reference path), the session, its
 * registry, the jitted function, and what the common case needs. */

typedef struct {
    PyObject_HEAD
    PyObject *slow;     /* the Python callable (the reference path) */
    PyObject *session;
    PyObject *registry;
    PyObject *fn;       /* the jitted function (HotRunner: the plan-cache entry) */
    PyObject *spec;     /* HotRunner: the entry's fit_spec or None */
    PyObject *fits;     /* HotRunner: the entry's fits predicate */
    PyObject *rebuild;  /* HotRunner: the fetch structure's rebuild, NULL for one tensor */
    PyObject *dict;
    PyObject *weaklist; /* SessionJit only (the session keeps them in a WeakSet) */
    Py_ssize_t n;       /* HotRunner: the number of feeds */
    int device;         /* HotRunner: device fetches */
    int by_buffer;
    vectorcallfunc vectorcall;
} Wrapper;

static Wrapper *
wrapper_new(PyTypeObject *type, vectorcallfunc call, PyObject *slow, PyObject *session, PyObject *registry,
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

static int
wrapper_traverse(Wrapper *self, visitproc visit, void *arg)
{
    Py_VISIT(self->slow);
    Py_VISIT(self->session);
    Py_VISIT(self->registry);
    Py_VISIT(self->fn);
    Py_VISIT(self->spec);
    Py_VISIT(self->fits);
    Py_VISIT(self->rebuild);
    Py_VISIT(self->dict);
    return 0;
}

static int
wrapper_clear(Wrapper *self)
{
    Py_CLEAR(self->slow);
    Py_CLEAR(self->session);
    Py_CLEAR(self->registry);
    Py_CLEAR(self->fn);
    Py_CLEAR(self->spec);
    Py_CLEAR(self->fits);
    Py_CLEAR(self->rebuild);
    Py_CLEAR(self->dict);
    return 0;
}

static void
wrapper_dealloc(Wrapper *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weaklist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    wrapper_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef runner_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(Wrapper, slow), READONLY, "the Python callable (the reference path)"},
    {"__dictoffset__", T_PYSSIZET, offsetof(Wrapper, dict), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Wrapper, vectorcall), READONLY, NULL},
    {NULL},
};

/* -- SafePoint: an ownership registry's safe point ------------------------------------
 *
 * OwnershipRegistry.safe_point when this module is built: the strategy's
 * trigger (IN_BACKGROUND: this many arrays adopted since the last sweep;
 * ON_SAFE_POINTS: the same, or the last sweep older than its maximum age),
 * and the sweep's common case in a device-fetch loop — every pending array
 * unreferenced and nothing else owned: they are counted allocated and freed,
 * the peak updated, and dropped — exactly as OwnershipRegistry.sweep does it.
 * Any other case calls the Python safe point (the reference). */

static PyObject *g_nbytes_cache; /* _resources._nbytes_cache: aval -> bytes */
static PyObject *g_perf_counter; /* time.perf_counter (the clock of _last_sweep) */
static double g_max_age;         /* _SAFE_POINT_MAX_AGE_S */
static int g_registry_configured;

static PyObject *s_lock, *s_acquire, *s_release, *s_owned, *s_pressure, *s_sweep_at, *s_sweep_at_idle;
static PyObject *s_last_sweep, *s_allocated, *s_freed, *s_live_bytes, *s_peak_bytes, *s_aval, *s_pinned;
static PyObject *s_collect_at;

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

/* Takes the registry's lock without waiting: 1 taken (*lock: the lock, a
 * new reference), 0 busy (the Python code waits for it), -1 error. */
static int
lock_nowait(PyObject *reg, PyObject **lock)
{
    PyObject *r;
    if ((*lock = PyObject_GetAttr(reg, s_lock)) == NULL)
        return -1;
    int got = (r = PyObject_CallMethodOneArg(*lock, s_acquire, Py_False)) == NULL ? -1 : PyObject_IsTrue(r);
    Py_XDECREF(r);
    if (got <= 0)
        Py_CLEAR(*lock);
    return got;
}

/* Releases a lock that lock_nowait took, and drops it, also while an error
 * is set (it stays set); returns result, or -1 when the release failed. */
static int
unlock(PyObject *lock, int result)
{
    PyObject *exc = take_exception();
    PyObject *r = PyObject_CallMethodNoArgs(lock, s_release);
    Py_DECREF(lock);
    if (r == NULL) {
        Py_XDECREF(exc);
        return -1;
    }
    Py_DECREF(r);
    give_exception(exc);
    return result;
}

/* The registry's tables, held while its lock is. */
typedef struct {
    PyObject *owned, *pinned, *pending;
} Tables;

/* 1: the registry is open and its tables are a dict, a dict and a list (new
 * references in *t); 0: not (nothing held); -1: error. */
static int
get_tables(PyObject *reg, Tables *t)
{
    int closed = attr_true(reg, s_closed);
    if (closed != 0)
        return closed < 0 ? -1 : 0;
    t->owned = PyObject_GetAttr(reg, s_owned);
    t->pinned = t->owned == NULL ? NULL : PyObject_GetAttr(reg, s_pinned);
    t->pending = t->pinned == NULL ? NULL : PyObject_GetAttr(reg, s_pending);
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
    if ((result = lock_nowait(reg, &lock)) <= 0)
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
        PyObject *nb = PyDict_GetItemWithError(g_nbytes_cache, aval);
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
    return unlock(lock, result);
}

static PyObject *
safepoint_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SafePoint *self = (SafePoint *)op;
    PyObject *reg = self->registry;
    if (PyVectorcall_NARGS(nargsf) != 0 || kwnames != NULL || !g_registry_configured)
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    int pressure = attr_true(reg, s_pressure);
    if (pressure < 0)
        return NULL;
    if (!pressure) {
        PyObject *pending = PyObject_GetAttr(reg, s_pending);
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
static PyObject *s_is_deleted;

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
static int
swap_arrays(PyObject *reg, PyObject *const *oi, PyObject *const *ni, Py_ssize_t n)
{
    if (!g_registry_configured || g_nbytes_of_cache == NULL || n == 0)
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
    if ((result = all_deleted(oi, n)) > 0 && (result = lock_nowait(reg, &lock)) > 0)
        result = unlock(lock, swap_locked(reg, oi, ni, n, sizes));
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
    int result = swap_arrays(reg, ((PyTupleObject *)o)->ob_item, ((PyTupleObject *)nw)->ob_item, n);
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
    Py_XSETREF(g_concrete, concrete);
    Py_INCREF(nbytes_cache);
    Py_XSETREF(g_nbytes_cache, nbytes_cache);
    Py_INCREF(perf_counter);
    Py_XSETREF(g_perf_counter, perf_counter);
    g_max_age = max_age;
    g_registry_configured = 1;
    Py_RETURN_NONE;
}

/* -- run_entry: a cached plan run, for Session.run and make_callable -------------------
 *
 * _run_entry's twin (see its docstring for the steps) and its pieces: the
 * stateful plan's call (state_call, Session._call's stateful branch), the
 * end of a section with deferred signal handlers (deliver_held), and the
 * values made from the plan's results (finish: steps 5-7). */

/* The values of `slots` (a tuple) in `state` (a dict), as a new tuple. A
 * missing slot gives None when missing_ok, else NULL with no error set. */
static PyObject *
gather(PyObject *state, PyObject *slots, int missing_ok)
{
    Py_ssize_t n = PyTuple_GET_SIZE(slots);
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyDict_GetItemWithError(state, PyTuple_GET_ITEM(slots, i));
        if (v == NULL) {
            if (PyErr_Occurred() || !missing_ok) {
                Py_DECREF(t);
                return NULL;
            }
            v = Py_None;
        }
        Py_INCREF(v);
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* Session._call's stateful branch for a plan on the default device, step =
 * (fn, donated, kept, written slots), under the session's state lock: the
 * start state gathered, fn(donated, kept, feeds) (a ValueError goes to
 * _step_failed: the retry on one device), the new state installed and
 * swapped in the registry (swap_arrays, else registry._swap_pinned).
 * 1: done (*results: the fetched values, or NULL with the error set); 0: not
 * this case, nothing changed (the session closed, a state slot missing:
 * run_entry hands the call to _run_entry, whose Session._call raises, or
 * creates a random op's counter). */
static int
state_call(PyObject *session, PyObject *registry, PyObject *step, PyObject *const *vals, Py_ssize_t n,
           PyObject **results)
{
    PyObject *lock, *r, *state = NULL, *donated = NULL, *kept = NULL, *olds = NULL, *feeds = NULL, *res = NULL;
    PyObject *news = NULL;
    int result = 1;
    *results = NULL;
    if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 4 || !PyTuple_CheckExact(PyTuple_GET_ITEM(step, 1))
        || !PyTuple_CheckExact(PyTuple_GET_ITEM(step, 2)) || !PyTuple_CheckExact(PyTuple_GET_ITEM(step, 3)))
        return 0;
    PyObject *fn = PyTuple_GET_ITEM(step, 0), *written = PyTuple_GET_ITEM(step, 3);
    if ((lock = PyObject_GetAttr(session, s_state_lock)) == NULL)
        return 1;
    if ((r = PyObject_CallMethodNoArgs(lock, s_acquire)) == NULL) {
        Py_DECREF(lock);
        return 1;
    }
    Py_DECREF(r);
    int closed = attr_true(session, s_closed);
    if (closed != 0) {
        result = closed < 0 ? 1 : 0;
        goto done;
    }
    if ((state = PyObject_GetAttr(session, s_state)) == NULL)
        goto done;
    if (!PyDict_CheckExact(state)) {
        result = 0;
        goto done;
    }
    if ((donated = gather(state, PyTuple_GET_ITEM(step, 1), 0)) == NULL
        || (kept = gather(state, PyTuple_GET_ITEM(step, 2), 0)) == NULL) {
        result = PyErr_Occurred() ? 1 : 0; /* a missing slot: _call's _start_value */
        goto done;
    }
    if ((olds = gather(state, written, 1)) == NULL || (feeds = as_tuple(vals, n)) == NULL)
        goto done;
    PyObject *args[3] = {donated, kept, feeds};
    res = PyObject_Vectorcall(fn, args, 3, NULL);
    if (res == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_Exception))
            goto done;
        PyObject *err = take_exception();
        if (err == NULL)
            goto done;
        res = PyObject_CallFunctionObjArgs(g_step_failed, fn, donated, kept, feeds, err, NULL);
        Py_DECREF(err);
        if (res == NULL)
            goto done;
    }
    Py_ssize_t nw = PyTuple_GET_SIZE(written);
    PyObject *pair = PySequence_Fast(res, "jaxsess._core.runtime._hot: a stateful plan returned no (fetches, new state) pair");
    if (pair == NULL)
        goto done;
    Py_SETREF(res, pair);
    if (PySequence_Fast_GET_SIZE(res) != 2 || (news = PySequence_Tuple(PySequence_Fast_GET_ITEM(res, 1))) == NULL
        || PyTuple_GET_SIZE(news) != nw) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_SystemError, "jaxsess._core.runtime._hot: a stateful plan returned no (fetches, new state) pair");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nw; i++)
        if (PyDict_SetItem(state, PyTuple_GET_ITEM(written, i), PyTuple_GET_ITEM(news, i)) < 0)
            goto done;
    PyObject *const *oi = ((PyTupleObject *)olds)->ob_item, *const *ni = ((PyTupleObject *)news)->ob_item;
    int swapped = swap_arrays(registry, oi, ni, nw);
    if (swapped < 0)
        goto done;
    if (swapped == 0) {
        r = PyObject_CallMethodObjArgs(registry, s_swap_pinned_py, olds, news, NULL);
        if (r == NULL)
            goto done;
        Py_DECREF(r);
    }
    *results = PySequence_Fast_GET_ITEM(res, 0);
    Py_INCREF(*results);
done:
    result = unlock(lock, result);
    if (result < 0) { /* the release failed */
        Py_CLEAR(*results);
        result = 1;
    }
    Py_XDECREF(state);
    Py_XDECREF(donated);
    Py_XDECREF(kept);
    Py_XDECREF(olds);
    Py_XDECREF(feeds);
    Py_XDECREF(res);
    Py_XDECREF(news);
    return result;
}

/* Ends a section that _signals.defer started (held: its token): runs
 * _signals.deliver(held), keeping the error set, if any. A handler that
 * raises replaces `result` or that error (its context), as an exception in a
 * finally clause does. Steals held and result. */
static PyObject *
deliver_held(PyObject *held, PyObject *result)
{
    if (held == Py_None) {
        Py_DECREF(held);
        return result;
    }
    PyObject *exc = take_exception();
    PyObject *r = PyObject_CallOneArg(g_deliver, held);
    Py_DECREF(held);
    if (r == NULL) {
        Py_XDECREF(result);
        if (exc != NULL) {
            PyObject *raised = take_exception();
            if (raised != NULL && raised != exc)
                PyException_SetContext(raised, exc); /* steals exc */
            else
                Py_DECREF(exc);
            give_exception(raised);
        }
        return NULL;
    }
    Py_DECREF(r);
    give_exception(exc);
    return result;
}

/* Steps 5-7 of _run_entry (no gather, step 4: callers never give
 * run_entry a multi-process session's host fetches): from a plan's device
 * results `res`, with device fetches `res` adopted by session._adopt, else
 * their host copies (one by host_value, several by to_host); placed by the
 * entry's positions (None: as they are); then the first (single), the list
 * (rebuild NULL), or rebuild(list). */
static PyObject *
finish(PyObject *session, PyObject *entry, PyObject *res, PyObject *const *vals, Py_ssize_t n, int device,
       int single, PyObject *rebuild)
{
    PyObject *seq = PySequence_Tuple(res), *values = NULL, *full = NULL, *out = NULL;
    if (seq == NULL)
        return NULL;
    Py_ssize_t nr = PyTuple_GET_SIZE(seq);
    if (device) {
        PyObject *t = as_tuple(vals, n);
        PyObject *r = t == NULL ? NULL
                                : PyObject_CallMethodObjArgs(session, s_adopt, seq, t, PyTuple_GET_ITEM(entry, g_i_plan),
                                                             NULL);
        Py_XDECREF(t);
        if (r == NULL)
            goto done;
        Py_DECREF(r);
        values = PySequence_List(seq);
    }
    else if (nr == 0)
        values = PyList_New(0);
    else if (nr == 1) {
        PyObject *h = host_value(PyTuple_GET_ITEM(seq, 0));
        values = h == NULL ? NULL : PyList_New(1);
        if (values == NULL) {
            Py_XDECREF(h);
            goto done;
        }
        PyList_SET_ITEM(values, 0, h);
    }
    else
        values = PyObject_CallOneArg(g_to_host, seq);
    if (values == NULL)
        goto done;
    if (!PyList_CheckExact(values)) {
        PyErr_SetString(PyExc_TypeError, "jaxsess._core.runtime._hot: to_host did not return a list");
        goto done;
    }
    PyObject *positions = PyTuple_GET_ITEM(entry, g_i_positions);
    if (positions == Py_None) {
        full = values;
        Py_INCREF(full);
    }
    else {
        if (!PyList_CheckExact(positions)) {
            PyErr_SetString(PyExc_TypeError, "jaxsess._core.runtime._hot: a cache entry's positions is not a list");
            goto done;
        }
        Py_ssize_t np_ = PyList_GET_SIZE(positions);
        if ((full = PyList_New(np_)) == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < np_; i++) {
            PyObject *p = PyList_GET_ITEM(positions, i), *v = Py_None;
            if (p != Py_None) {
                Py_ssize_t k = PyLong_AsSsize_t(p);
                if (k == -1 && PyErr_Occurred())
                    goto done;
                if (k < 0 || k >= PyList_GET_SIZE(values)) {
                    PyErr_SetString(PyExc_IndexError, "jaxsess._core.runtime._hot: a fetch position past the plan's results");
                    goto done;
                }
                v = PyList_GET_ITEM(values, k);
            }
            Py_INCREF(v);
            PyList_SET_ITEM(full, i, v);
        }
    }
    if (single) {
        if (PyList_GET_SIZE(full) < 1) {
            PyErr_SetString(PyExc_IndexError, "jaxsess._core.runtime._hot: no fetched value");
            goto done;
        }
        out = PyList_GET_ITEM(full, 0);
        Py_INCREF(out);
    }
    else if (rebuild == NULL) {
        out = full;
        Py_INCREF(out);
    }
    else
        out = PyObject_CallOneArg(rebuild, full);
done:
    Py_DECREF(seq);
    Py_XDECREF(values);
    Py_XDECREF(full);
    return out;
}

/* The Python _run_entry(session, entry, vals, device, single, rebuild): what
 * run_entry calls for what it does not run itself. */
static PyObject *
python_run_entry(PyObject *session, PyObject *entry, PyObject *const *vals, Py_ssize_t n, int device, int single,
                 PyObject *rebuild)
{
    PyObject *t = as_tuple(vals, n);
    if (t == NULL)
        return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(g_run_entry, session, entry, t, device ? Py_True : Py_False,
                                               single ? Py_True : Py_False, rebuild == NULL ? Py_None : rebuild, NULL);
    Py_DECREF(t);
    return r;
}

/* _run_entry in _graph_session.py, step by step (see its docstring): runs a
 * cached entry on vals[0..n) (as the plan takes them; the safe point has
 * run) and returns what run or the callable returns: one value (single), a
 * list (rebuild NULL) or rebuild(list); NULL with an error set. Callers
 * never give it a multi-process session's host fetches. What it does not
 * run itself (variants to free, an entry with no direct_one, direct or
 * step, a state slot missing) it hands to the Python function whole,
 * before anything changed. */
static PyObject *
run_entry(PyObject *session, PyObject *registry, PyObject *entry, PyObject *const *vals, Py_ssize_t n, int device,
          int single, PyObject *rebuild)
{
    /* 1. compiled variants to free: the Python function */
    int drop = attr_true(session, s_drop_variants);
    if (drop != 0)
        return drop < 0 ? NULL : python_run_entry(session, entry, vals, n, device, single, rebuild);
    PyObject *fn = PyTuple_GET_ITEM(entry, g_i_direct_one), *res = NULL, *held = NULL, *result = NULL;
    /* 2. one fetched tensor of a stateless plan: its value */
    if (fn != Py_None && single) {
        int by_buffer = PyObject_IsTrue(PyTuple_GET_ITEM(entry, g_i_by_buffer));
        if (by_buffer < 0)
            return NULL;
        Py_INCREF(fn);
        result = call_and_finish(session, registry, fn, vals, n, device, by_buffer);
        Py_DECREF(fn);
        return result;
    }
    /* 3. the plan's results */
    if (fn != Py_None) {
        PyObject *out = call_flat(session, fn, vals, n);
        res = out == NULL ? NULL : PyTuple_Pack(1, out);
        Py_XDECREF(out);
    }
    else if ((fn = PyTuple_GET_ITEM(entry, g_i_direct)) != Py_None) {
        Py_INCREF(fn);
        res = call_flat(session, fn, vals, n);
        Py_DECREF(fn);
    }
    else {
        PyObject *step = PyTuple_GET_ITEM(entry, g_i_step);
        if (step == Py_None) /* invoke: placed, x64, permuted feeds, host outputs */
            return python_run_entry(session, entry, vals, n, device, single, rebuild);
        if ((held = PyObject_CallNoArgs(g_defer)) == NULL)
            return NULL;
        Py_INCREF(step);
        int done = state_call(session, registry, step, vals, n, &res);
        Py_DECREF(step);
        if (!done) { /* nothing changed: handlers back, and the Python function */
            PyObject *ok = deliver_held(held, Py_None);
            if (ok == NULL)
                return NULL; /* a deferred handler raised */
            Py_DECREF(ok);
            return python_run_entry(session, entry, vals, n, device, single, rebuild);
        }
        if (res == NULL && PyErr_ExceptionMatches(PyExc_Exception)) { /* _raise_translated */
            PyObject *err = take_exception();
            PyObject *r = err == NULL ? NULL : PyObject_CallMethodOneArg(session, s_raise_translated, err);
            Py_XDECREF(err);
            Py_XDECREF(r); /* it raises */
        }
    }
    /* 4-7. (no gather) the values adopted or copied to the host, placed, rebuilt */
    if (res != NULL) {
        result = finish(session, entry, res, vals, n, device, single, rebuild);
        Py_DECREF(res);
    }
    if (held != NULL)
        result = deliver_held(held, result);
    return result;
}

/* -- HotRunner: make_callable's functions --------------------------------------------
 *
 * make_callable's `runner`, step by step (see its docstring): the
 * closed-session and arity errors (declined: the Python runner raises
 * them), the feed values as the plan takes them, the safe point, and
 * run_entry. Not made for a multi-process session's host fetches. The
 * Wrapper's fn holds the cache entry, spec/fits its feed check; rebuild
 * (NULL: one value fetched) makes the fetch structure. Keyword arguments
 * (ignored by the runner) decline too. */

static PyObject *
hotrunner_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Wrapper *self = (Wrapper *)op;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (!g_configured || kwnames != NULL)
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    /* the closed-session error */
    int closed = attr_true(self->session, s_closed);
    if (closed < 0)
        return NULL;
    /* the arity error */
    if (closed || nargs != self->n)
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    /* the feed values as the plan takes them */
    PyObject *conv;
    if (entry_feed_values(self->fn, self->spec, self->fits, args, nargs, &conv) < 0)
        return NULL;
    PyObject *result = NULL;
    /* the registry's safe point; run_entry */
    if (call_safe_point(self->registry) == 0)
        result = run_entry(self->session, self->registry, self->fn,
                           conv == NULL ? args : ((PyListObject *)conv)->ob_item, nargs, self->device,
                           self->rebuild == NULL, self->rebuild);
    Py_XDECREF(conv);
    return result;
}

static PyObject *
hotrunner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow, *session, *registry, *entry, *rebuild;
    Py_ssize_t n;
    int device;
    static char *kwlist[] = {"slow", "session", "registry", "entry", "n", "device", "rebuild", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOnpO:HotRunner", kwlist, &slow, &session, &registry, &entry,
                                     &n, &device, &rebuild))
        return NULL;
    if (!g_configured || !PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) <= g_i_max) {
        PyErr_SetString(PyExc_TypeError, "HotRunner: entry must be a plan-cache entry (after configure)");
        return NULL;
    }
    PyObject *spec = PyTuple_GET_ITEM(entry, g_i_spec);
    if (spec != Py_None && !PyTuple_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "HotRunner: the entry's fit_spec must be a tuple or None");
        return NULL;
    }
    Wrapper *self = wrapper_new(type, hotrunner_vectorcall, slow, session, registry, entry, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(spec);
    self->spec = spec;
    self->fits = PyTuple_GET_ITEM(entry, g_i_fits);
    Py_INCREF(self->fits);
    if (rebuild != Py_None) {
        Py_INCREF(rebuild);
        self->rebuild = rebuild;
    }
    self->n = n;
    self->device = device;
    return (PyObject *)self;
}

static PyTypeObject HotRunnerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "jaxsess._core.runtime._hot.HotRunner",
    .tp_doc = "A make_callable function whose cache-hit calls run in C; others call the wrapped Python callable.",
    .tp_basicsize = sizeof(Wrapper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = hotrunner_new,
    .tp_dealloc = (destructor)wrapper_dealloc,
    .tp_traverse = (traverseproc)wrapper_traverse,
    .tp_clear = (inquiry)wrapper_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_dictoffset = offsetof(Wrapper, dict),
    .tp_members = runner_members,
    .tp_getset = dict_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* -- SessionJit: the function session.jit returns ------------------------------------
 *
 * BaseSession.jit's `call`, for positional calls: the calling thread is
 * registered in the registry's in-flight list (close() waits for it), the
 * closed checks, the safe point, the jitted call (an Exception goes through
 * the session's _raise_translated), and the adoption of the
 * result (adopt_outputs' inlined case for one fresh array, else
 * adopt_outputs itself). A call with keyword arguments, or on a closed
 * session, calls the Python function (the reference). */

static PyObject *s_inflight;

/* Removes the last occurrence of `me` from `inflight` (list.remove of a
 * multiset: which one does not matter), keeping any exception set. */
static int
leave_inflight(PyObject *inflight, PyObject *me)
{
    int result = 0;
    PyObject *exc = take_exception();
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
        give_exception(exc);
    }
    return result;
}

static PyObject *
sessionjit_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Wrapper *self = (Wrapper *)op;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!g_registry_configured || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0))
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
    int closed = attr_true(self->session, s_closed);
    if (closed == 0)
        closed = attr_true(self->registry, s_closed);
    if (closed != 0) {
        if (leave_inflight(inflight, me) == 0 && closed > 0)
            out = PyObject_Vectorcall(self->slow, args, nargsf, kwnames); /* it raises the closed error */
        goto done;
    }
    if (call_safe_point(self->registry) < 0)
        goto leave;
    out = PyObject_Vectorcall(self->fn, args, (size_t)n, NULL);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_Exception)) {
            PyObject *err = take_exception();
            if (err != NULL) {
                PyObject *r = PyObject_CallMethodOneArg(self->session, s_raise_translated, err);
                Py_XDECREF(r); /* it always raises */
                Py_DECREF(err);
                if (r != NULL)
                    PyErr_SetString(PyExc_SystemError, "jaxsess._core.runtime._hot: _raise_translated returned");
            }
        }
        goto leave;
    }
    if (adopt(self->registry, out, args, n, self->by_buffer) < 0)
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
    return (PyObject *)wrapper_new(type, sessionjit_vectorcall, slow, session, registry, jitted, by_buffer);
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
    .tp_dealloc = (destructor)wrapper_dealloc,
    .tp_traverse = (traverseproc)wrapper_traverse,
    .tp_clear = (inquiry)wrapper_clear,
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

/* -- the module ---------------------------------------------------------------------- */

static PyObject *
configure(PyObject *module, PyObject *args, PyObject *kwds)
{
    PyObject *np_array, *ndarray, *tensor, *host_data, *flat_failed, *operation, *defer, *deliver, *to_host;
    PyObject *step_failed, *feed_values, *run_entry_py;
    Py_ssize_t idx[9];
    static char *kwlist[] = {"np_array", "ndarray", "tensor", "host_data", "flat_failed", "operation", "defer",
                             "deliver", "to_host", "step_failed", "feed_values", "run_entry", "i_plan", "i_positions",
                             "i_fits", "i_spec", "i_direct", "i_direct_one", "i_by_buffer", "i_step", "i_feeds", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOOOOnnnnnnnnn:configure", kwlist, &np_array, &ndarray,
                                     &tensor, &host_data, &flat_failed, &operation, &defer, &deliver, &to_host,
                                     &step_failed, &feed_values, &run_entry_py, &idx[0], &idx[1], &idx[2], &idx[3],
                                     &idx[4], &idx[5], &idx[6], &idx[7], &idx[8]))
        return NULL;
    if (!g_registry_configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure: call configure_registry first");
        return NULL;
    }
    if (!PyType_Check(ndarray) || !PyType_Check(tensor) || !PyType_Check(operation) || !PyAnySet_Check(host_data)) {
        PyErr_SetString(PyExc_TypeError, "configure: ndarray, tensor and operation must be types, host_data a set");
        return NULL;
    }
    g_i_max = 0; /* the hot paths check an entry's size against the largest index */
    for (int i = 0; i < 9; i++) {
        if (idx[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "configure: negative field index");
            return NULL;
        }
        if (idx[i] > g_i_max)
            g_i_max = idx[i];
    }
#define SET_GLOBAL(g, v) \
    do {                 \
        Py_INCREF(v);    \
        Py_XSETREF(g, v); \
    } while (0)
    SET_GLOBAL(g_np_array, np_array);
    SET_GLOBAL(g_ndarray, ndarray);
    SET_GLOBAL(g_tensor, tensor);
    SET_GLOBAL(g_host_data, host_data);
    SET_GLOBAL(g_flat_failed, flat_failed);
    SET_GLOBAL(g_operation, operation);
    SET_GLOBAL(g_defer, defer);
    SET_GLOBAL(g_deliver, deliver);
    SET_GLOBAL(g_to_host, to_host);
    SET_GLOBAL(g_step_failed, step_failed);
    SET_GLOBAL(g_feed_values, feed_values);
    SET_GLOBAL(g_run_entry, run_entry_py);
#undef SET_GLOBAL
    g_i_plan = idx[0];
    g_i_positions = idx[1];
    g_i_fits = idx[2];
    g_i_spec = idx[3];
    g_i_direct = idx[4];
    g_i_direct_one = idx[5];
    g_i_by_buffer = idx[6];
    g_i_step = idx[7];
    g_i_feeds = idx[8];
    g_configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef hot_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(*, np_array, ndarray, tensor, host_data, flat_failed, operation, defer, deliver, to_host, "
     "step_failed, feed_values, run_entry, i_plan, i_positions, i_fits, i_spec, i_direct, i_direct_one, i_by_buffer, "
     "i_step, i_feeds): the objects "
     "and cache-entry field indices the hot paths use; until it is called every call takes the Python path."},
    {"configure_registry", (PyCFunction)(void (*)(void))configure_registry, METH_VARARGS | METH_KEYWORDS,
     "configure_registry(*, nbytes_cache, nbytes_of_cache, perf_counter, max_age, concrete): what SafePoint, "
     "swap_pinned and SessionJit use (concrete: the set of concrete jax.Array types); until it is called they "
     "call the Python code."},
    {"swap_pinned", (PyCFunction)(void (*)(void))swap_common, METH_FASTCALL,
     "swap_pinned(registry, olds, news) -> bool: OwnershipRegistry.swap_pinned's common case (every old array "
     "deleted, fresh new ones of cached sizes, nothing pending); False: not that case, nothing changed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef hot_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "jaxsess._core.runtime._hot",
    .m_doc = "The cache-hit path of Session.run and make_callable, in C (see _hot.c).",
    .m_size = -1,
    .m_methods = hot_methods,
};

#define INTERN(var, text)                                    \
    do {                                                     \
        if ((var = PyUnicode_InternFromString(text)) == NULL) \
            return NULL;                                     \
    } while (0)

PyMODINIT_FUNC
PyInit__hot(void)
{
    INTERN(s_closed, "_closed");
    INTERN(s_drop_variants, "_drop_variants");
    INTERN(s_multiprocess, "_multiprocess");
    INTERN(s_plans, "_plans");
    INTERN(s_last_hit, "_last_hit");
    INTERN(s_registry, "_registry");
    INTERN(s_device_fetches, "_device_fetches");
    INTERN(s_safe_point, "safe_point");
    INTERN(s_move_to_end, "move_to_end");
    INTERN(s_pending, "_pending");
    INTERN(s_reject_late, "reject_late");
    INTERN(s_adopt_outputs, "adopt_outputs");
    INTERN(s_dtype, "dtype");
    INTERN(s_shape, "shape");
    INTERN(s_ndim, "ndim");
    INTERN(s_by_buffer, "by_buffer");
    INTERN(s_lock, "_lock");
    INTERN(s_acquire, "acquire");
    INTERN(s_release, "release");
    INTERN(s_owned, "_owned");
    INTERN(s_pressure, "_pressure");
    INTERN(s_sweep_at, "_sweep_at");
    INTERN(s_sweep_at_idle, "_sweep_at_idle");
    INTERN(s_last_sweep, "_last_sweep");
    INTERN(s_allocated, "_allocated");
    INTERN(s_freed, "_freed");
    INTERN(s_live_bytes, "_live_bytes");
    INTERN(s_peak_bytes, "_peak_bytes");
    INTERN(s_aval, "aval");
    INTERN(s_pinned, "_pinned");
    INTERN(s_is_deleted, "is_deleted");
    INTERN(s_collect_at, "_collect_at");
    INTERN(s_inflight, "inflight");
    INTERN(s_raise_translated, "_raise_translated");
    INTERN(s_graph, "_graph");
    INTERN(s_state, "_state");
    INTERN(s_state_lock, "_state_lock");
    INTERN(s_adopt, "_adopt");
    INTERN(s_swap_pinned_py, "_swap_pinned");
    if ((g_empty_tuple = PyTuple_New(0)) == NULL)
        return NULL;
    if (PyType_Ready(&HotRunType) < 0 || PyType_Ready(&SafePointType) < 0
        || PyType_Ready(&SessionJitType) < 0 || PyType_Ready(&HotRunnerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&hot_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&HotRunType);
    if (PyModule_AddObject(m, "HotRun", (PyObject *)&HotRunType) < 0) {
        Py_DECREF(&HotRunType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&HotRunnerType);
    if (PyModule_AddObject(m, "HotRunner", (PyObject *)&HotRunnerType) < 0) {
        Py_DECREF(&HotRunnerType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SafePointType);
    if (PyModule_AddObject(m, "SafePoint", (PyObject *)&SafePointType) < 0) {
        Py_DECREF(&SafePointType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SessionJitType);
    if (PyModule_AddObject(m, "SessionJit", (PyObject *)&SessionJitType) < 0) {
        Py_DECREF(&SessionJitType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
