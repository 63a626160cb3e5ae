/*
 * _hot.c: the C twin of the plan-cache hit of Session.run and of
 * make_callable's functions, and nothing else. Its one Python copy, in
 * _graph_session.py, is the reference and the fallback. Part of the
 * extension module jaxsess._core.runtime._hot (see _hot.h for its other
 * files). Function by function, the same steps in the same order (each
 * Python docstring lists them; the C functions mark them with the same
 * numbers):
 *
 *   Python (_graph_session.py)                 C (this file)
 *   Session.run's first lines + Session._hit   hot_run (HotRun: Session.run itself)
 *   make_callable's runner                     hotrunner_vectorcall (HotRunner)
 *   _run_entry                                 run_entry
 *     _Entry.feed_values                         entry_feed_values (+ feeds_fit: fit_spec as data)
 *     _call_flat / _flat_failed                  call_flat
 *     Session._call's stateful branch            state_call (from the entry's step)
 *     host_value, to_host, Session._adopt        host_value, finish, hot_adopt (_hot_common.c)
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
 * Only the cache hit is here. What it calls of the rest of jaxsess goes
 * through the same objects as in Python: the registry's safe point
 * (registry.safe_point, skipped when it has nothing to do: hot_call_safe_point), a
 * stateful plan's variable swap (hot_swap_arrays, swap_pinned's twin in
 * _hot_registry.c, else registry._swap_pinned), and the adoption of device
 * results (hot_adopt, _hot_common.c). The module's other twins live in their
 * own files: _hot_registry.c (OwnershipRegistry's swap_pinned),
 * _hot_wrap.c (session.wrap and session.jit calls); _hot_module.c makes the
 * module of them all (see _hot.h).
 *
 * Per call, the Python paths stay reachable: Session.run.__wrapped__ (the
 * Python method), a HotRunner's __wrapped__ (the runner).
 */
#include "_hot.h"

static PyObject *s_adopt, *s_device_fetches, *s_drop_variants, *s_dtype, *s_graph, *s_last_hit;
static PyObject *s_move_to_end, *s_multiprocess, *s_ndim, *s_plans, *s_registry, *s_shape, *s_state;
static PyObject *s_state_lock, *s_swap_pinned_py;

/* Set by configure(); the hot paths fall back to Python until then. */
static PyObject *g_np_array;    /* numpy.array */
static PyObject *g_ndarray;     /* numpy.ndarray */
static PyObject *g_tensor;      /* jaxsess Tensor */
static PyObject *g_host_data;   /* HOST_GRAPHS.data (a set of weak references): the session's graph in it -> Python */
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

static PyObject *g_empty_tuple;

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
    PyObject *err = hot_take_exception();
    if (err == NULL)
        return NULL;
    PyObject *t = hot_as_tuple(vals, n);
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
        if (hot_adopt(registry, out, vals, n, by_buffer) < 0)
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
    PyObject *t = hot_as_tuple(vals, n);
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
    if ((r = hot_attr_true(session, hot_s_closed)) != 0 || (r = graph_on_host(session)) != 0)
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
        if ((r = hot_attr_true(session, s_multiprocess)) != 0)
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
        if ((leaves_t == NULL && (leaves_t = hot_as_tuple(leaves, nf)) == NULL)
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
        if ((registry = PyObject_GetAttr(session, s_registry)) == NULL || (device = hot_attr_true(session, s_device_fetches)) < 0)
            goto error;
    }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) <= g_i_max)
        goto miss;
    /* 4. the feed values as the plan takes them */
    if (entry_feed_values(entry, PyTuple_GET_ITEM(entry, g_i_spec), PyTuple_GET_ITEM(entry, g_i_fits), vals, n, &conv) < 0)
        goto error;
    /* 5. the registry's safe point */
    if (hot_call_safe_point(registry) < 0)
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

static PyMemberDef runner_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(Wrapper, slow), READONLY, "the Python callable (the reference path)"},
    {"__dictoffset__", T_PYSSIZET, offsetof(Wrapper, dict), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Wrapper, vectorcall), READONLY, NULL},
    {NULL},
};

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
 * swapped in the registry (hot_swap_arrays, else registry._swap_pinned).
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
    if ((r = PyObject_CallMethodNoArgs(lock, hot_s_acquire)) == NULL) {
        Py_DECREF(lock);
        return 1;
    }
    Py_DECREF(r);
    int closed = hot_attr_true(session, hot_s_closed);
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
    if ((olds = gather(state, written, 1)) == NULL || (feeds = hot_as_tuple(vals, n)) == NULL)
        goto done;
    PyObject *args[3] = {donated, kept, feeds};
    res = PyObject_Vectorcall(fn, args, 3, NULL);
    if (res == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_Exception))
            goto done;
        PyObject *err = hot_take_exception();
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
    int swapped = hot_swap_arrays(registry, oi, ni, nw);
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
    result = hot_unlock(lock, result);
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
    PyObject *exc = hot_take_exception();
    PyObject *r = PyObject_CallOneArg(g_deliver, held);
    Py_DECREF(held);
    if (r == NULL) {
        Py_XDECREF(result);
        if (exc != NULL) {
            PyObject *raised = hot_take_exception();
            if (raised != NULL && raised != exc)
                PyException_SetContext(raised, exc); /* steals exc */
            else
                Py_DECREF(exc);
            hot_give_exception(raised);
        }
        return NULL;
    }
    Py_DECREF(r);
    hot_give_exception(exc);
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
        PyObject *t = hot_as_tuple(vals, n);
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
    PyObject *t = hot_as_tuple(vals, n);
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
    int drop = hot_attr_true(session, s_drop_variants);
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
            PyObject *err = hot_take_exception();
            PyObject *r = err == NULL ? NULL : PyObject_CallMethodOneArg(session, hot_s_raise_translated, err);
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
    int closed = hot_attr_true(self->session, hot_s_closed);
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
    if (hot_call_safe_point(self->registry) == 0)
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
    Wrapper *self = hot_wrapper_new(type, hotrunner_vectorcall, slow, session, registry, entry, 0);
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
    .tp_dealloc = (destructor)hot_wrapper_dealloc,
    .tp_traverse = (traverseproc)hot_wrapper_traverse,
    .tp_clear = (inquiry)hot_wrapper_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_dictoffset = offsetof(Wrapper, dict),
    .tp_members = runner_members,
    .tp_getset = dict_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* -- configure: what the cache hit uses, and its part of the module -------------------- */

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
    if (!hot_registry_configured) {
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

static PyMethodDef run_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(*, np_array, ndarray, tensor, host_data, flat_failed, operation, defer, deliver, to_host, "
     "step_failed, feed_values, run_entry, i_plan, i_positions, i_fits, i_spec, i_direct, i_direct_one, i_by_buffer, "
     "i_step, i_feeds): the objects "
     "and cache-entry field indices the hot paths use; until it is called every call takes the Python path."},
    {NULL, NULL, 0, NULL},
};

/* HotRun, HotRunner and configure into the module; 0, or -1 with an error set. */
int
hot_run_init(PyObject *module)
{
    HOT_INTERN(s_adopt, "_adopt");
    HOT_INTERN(s_device_fetches, "_device_fetches");
    HOT_INTERN(s_drop_variants, "_drop_variants");
    HOT_INTERN(s_dtype, "dtype");
    HOT_INTERN(s_graph, "_graph");
    HOT_INTERN(s_last_hit, "_last_hit");
    HOT_INTERN(s_move_to_end, "move_to_end");
    HOT_INTERN(s_multiprocess, "_multiprocess");
    HOT_INTERN(s_ndim, "ndim");
    HOT_INTERN(s_plans, "_plans");
    HOT_INTERN(s_registry, "_registry");
    HOT_INTERN(s_shape, "shape");
    HOT_INTERN(s_state, "_state");
    HOT_INTERN(s_state_lock, "_state_lock");
    HOT_INTERN(s_swap_pinned_py, "_swap_pinned");
    if ((g_empty_tuple = PyTuple_New(0)) == NULL)
        return -1;
    if (PyType_Ready(&HotRunType) < 0 || PyType_Ready(&HotRunnerType) < 0
        || hot_add_type(module, "HotRun", &HotRunType) < 0 || hot_add_type(module, "HotRunner", &HotRunnerType) < 0)
        return -1;
    return PyModule_AddFunctions(module, run_methods);
}
