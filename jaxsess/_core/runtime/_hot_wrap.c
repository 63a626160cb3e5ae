/*
 * _hot_wrap.c: the wrapper session.wrap and session.jit return for a fresh
 * callable (a jax.jit call: its outputs are new arrays), in C, part of the
 * extension module jaxsess._core.runtime._hot (see _hot.h). The twin of the
 * `call` function in BaseSession._wrap (_session.py) with fresh=True and
 * donates=False, which is the reference and the fallback: WrapCall runs its
 * positional calls step by step as `call` does, and owns the outputs as
 * OwnershipRegistry.own_one / own_fresh (_resources.py) do: one weak
 * reference per array whose callback is the registry's _died, its size from
 * the aval caches, entered in the registry's OwnedTable (_hot_owned.c) under
 * its lock with the same allocated, live and peak counts and the same budget
 * pressure; under ON_SESSION_CLOSE the call's arrays join _batches, strongly
 * held, as _own does. Anything else calls the Python code: keyword
 * arguments, a closed session (it raises), a leaf that is not a concrete
 * jax.Array, an aval no size cache knows, a busy lock.
 *
 * What a call costs on top of the jitted call is kept to C operations: the
 * registry's attributes are read and written in its instance dict (held
 * since the WrapCall was made), its lock's methods and its containers
 * (_owned, _dead, _died, _pending, inflight, _batches: never rebound) are
 * bound once, the owned table and its counters are C structures,
 * sizes are cached by aval address,
 * the safe point is called only when it has something to do
 * (hot_safe_point_idle), and the leaves of an output made of exact dicts,
 * lists, tuples and None are collected directly (the same leaves as
 * jax.tree_util.tree_leaves, whose order ownership does not depend on);
 * any other pytree is flattened by jax.tree_util.tree_leaves.
 */
#include "_hot.h"

static PyObject *s_inflight, *s_died, *s_owned;
static PyObject *s_collect_at, *s_wake, *s_set, *s_aval, *s_own_fresh, *s_lock, *s_release, *s_locked;
static PyObject *s_hold, *s_batches;

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

/* The getter of `aval` of the last type asked for: ArrayImpl's `aval` is a
 * property of its own class, which getattr finds and calls (a data
 * descriptor wins over the instance dict); calling its fget directly skips
 * the lookup. Anything else (another descriptor, an inherited one): NULL,
 * and getattr. */
static PyTypeObject *g_aval_type;
static PyObject *g_aval_fget;
static vectorcallfunc g_aval_call; /* g_aval_fget's vectorcall, or NULL */

static PyObject *
aval_fget_of(PyTypeObject *tp)
{
    if (tp == g_aval_type)
        return g_aval_fget;
    PyObject *fget = NULL, *d = PyObject_GetAttrString((PyObject *)tp, "__dict__");
    PyObject *descr = d == NULL ? NULL : PyObject_GetItem(d, s_aval);
    if (descr != NULL && Py_IS_TYPE(descr, &PyProperty_Type)) {
        fget = PyObject_GetAttrString(descr, "fget");
        if (fget != NULL && !PyCallable_Check(fget))
            Py_CLEAR(fget);
    }
    PyErr_Clear();
    Py_XDECREF(descr);
    Py_XDECREF(d);
    Py_INCREF(tp);
    Py_XSETREF(g_aval_type, tp);
    Py_XSETREF(g_aval_fget, fget);
    g_aval_call = fget != NULL ? PyVectorcall_Function(fget) : NULL;
    return fget;
}

/* arr.aval, a new reference; NULL with an error set. */
static inline PyObject *
aval_of(PyObject *arr)
{
    PyObject *fget = aval_fget_of(Py_TYPE(arr));
    if (fget == NULL)
        return PyObject_GetAttr(arr, s_aval);
    if (g_aval_call == NULL)
        return PyObject_CallOneArg(fget, arr);
    PyObject *args[2] = {NULL, arr};
    PyObject *r = g_aval_call(fget, args + 1, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (r == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_SystemError, "aval getter returned NULL without an error");
    return r;
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

/* Removes the last occurrence of `me` from `inflight` (list.remove of a
 * multiset: which one does not matter), keeping any exception set. */
static int
leave_inflight(PyObject *inflight, PyObject *me)
{
    Py_ssize_t last = PyList_GET_SIZE(inflight) - 1;
    if (last >= 0 && PyList_GET_ITEM(inflight, last) == me) { /* the common case: list.pop() */
        Py_SET_SIZE(inflight, last);
        Py_DECREF(me); /* an int: runs no code */
        return 0;
    }
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

/* threading.get_ident(), a new reference: the last thread's int is reused. */
static PyObject *
thread_ident(void)
{
    unsigned long id = PyThread_get_thread_ident();
#ifndef Py_GIL_DISABLED
    static unsigned long last_id;
    static PyObject *last;
    if (last != NULL && id == last_id) {
        Py_INCREF(last);
        return last;
    }
    PyObject *me = PyLong_FromUnsignedLong(id);
    if (me != NULL) {
        Py_INCREF(me);
        Py_XSETREF(last, me);
        last_id = id;
    }
    return me;
#else
    return PyLong_FromUnsignedLong(id);
#endif
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

/* Where collect_leaves puts the leaves: `list` (appended), or when it is
 * NULL buf[n..cap) (new references; more than cap leaves: not collected). */
typedef struct {
    PyObject *list;
    PyObject **buf;
    Py_ssize_t n, cap;
} Sink;

/* A concrete array into the sink: 1, 0 (the buffer is full), -1 (error). */
static inline int
put_leaf(PyObject *leaf, Sink *sink)
{
    if (sink->list != NULL)
        return PyList_Append(sink->list, leaf) < 0 ? -1 : 1;
    if (sink->n >= sink->cap)
        return 0;
    Py_INCREF(leaf);
    sink->buf[sink->n++] = leaf;
    return 1;
}

/* Collects the leaves of `tree` into `sink` when it is made of exact dicts,
 * lists and tuples, None and concrete arrays: 1 done, 0 not such a tree (or
 * the buffer is full; the sink partly filled), -1 error. No Python code runs
 * (a list's growth allocates no tracked object), so `tree` cannot change
 * meanwhile. */
static int
collect_leaves(PyObject *tree, Sink *sink, int depth)
{
    PyTypeObject *tp = Py_TYPE(tree);
    if (tp == &PyTuple_Type || tp == &PyList_Type) {
        if (depth >= MAX_DEPTH)
            return 0;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(tree); i++) {
            PyObject *item = PySequence_Fast_ITEMS(tree)[i];
            int r = Py_TYPE(item) == g_last_concrete ? put_leaf(item, sink) : collect_leaves(item, sink, depth + 1);
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
            int r = Py_TYPE(value) == g_last_concrete ? put_leaf(value, sink) : collect_leaves(value, sink, depth + 1);
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
    return put_leaf(tree, sink);
}

/* Sizes of avals by address: a direct-mapped cache in front of the registry's
 * aval-keyed _nbytes_cache (whose lookup hashes the aval in Python). Each
 * slot holds its aval, so that its address is not reused while cached. */
#define AVAL_SLOTS 256
static struct {
    PyObject *aval;
    long long nbytes;
} g_aval_sizes[AVAL_SLOTS];

/* The size of arrays of `aval`: >= 0; -2 when no cache knows it (the Python
 * code computes it); -1 with an error set. */
static long long
size_of_aval(PyObject *aval)
{
    size_t h = (size_t)(uintptr_t)aval;
    h = (h >> 4) ^ (h >> 12);
    h &= AVAL_SLOTS - 1;
    if (g_aval_sizes[h].aval == aval)
        return g_aval_sizes[h].nbytes;
    PyObject *nb = PyDict_GetItemWithError(hot_nbytes_cache, aval); /* borrowed */
    if (nb == NULL)
        return PyErr_Occurred() ? -1 : -2;
    long long v = PyLong_AsLongLong(nb);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0)
        return -2;
    Py_INCREF(aval);
    Py_XSETREF(g_aval_sizes[h].aval, aval);
    g_aval_sizes[h].nbytes = v;
    return v;
}

/* The lock is free (or held by the caller, without the GIL): OwnershipRegistry._reap, inlined (the entries of
 * arrays that died dropped and counted freed); 1 when something was reaped. */
static int
reap_locked(PyObject *dead, PyObject *owned, OwnedCounts *c)
{
    Py_ssize_t nd = PyList_GET_SIZE(dead);
    if (nd == 0)
        return 0;
    /* The first nd refs, read in place (the list holds them; the table's pops
     * run no Python code), then dropped. */
    long long freed = 0, bytes = 0;
    for (Py_ssize_t i = 0; i < nd; i++) {
        long long nb;
        if (hot_owned_pop(owned, PyList_GET_ITEM(dead, i), &nb)) {
            freed++;
            bytes += nb;
        }
    }
    if (PyList_SetSlice(dead, 0, nd, NULL) < 0)
        return -1;
    c->live -= bytes;
    c->freed += freed;
    return freed != 0;
}

/* The lock is free (or held by the caller, without the GIL): enters refs[0..n) (the weak references of concrete
 * arrays, their sizes in sizes[0..n)) as own_one/_own do: _reap first when
 * arrays died, then _insert, with _reap's and _insert's budget pressure. */
static int
enter_locked(Wrapper *self, PyObject **refs, const char *young, const long long *sizes, Py_ssize_t n,
             long long total, PyObject *producer, Py_ssize_t young_freed)
{
    PyObject *d = self->rdict, *owned = self->owned;
    OwnedCounts *c = hot_owned_counts(owned);
    PyObject *collect_at = dget(d, s_collect_at);
    if (collect_at == NULL)
        return -1;
    long long at = 0;
    if (collect_at != Py_None && (at = PyLong_AsLongLong(collect_at)) == -1 && PyErr_Occurred())
        return -1;
    Py_ssize_t nyoung = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        nyoung += young[i];
    if (hot_owned_reserve(owned, n - nyoung) < 0 || hot_owned_young_reserve(owned, nyoung) < 0) /* the entries cannot fail */
        return -1;
    int reaped = reap_locked(self->dead, owned, c);
    if (reaped < 0)
        return -1;
    reaped |= young_freed > 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (young[i])
            hot_owned_young_push(owned, refs[i], sizes[i], producer);
        else
            hot_owned_insert(owned, refs[i], sizes[i], producer);
    }
    int pressure = 0;
    if (collect_at != Py_None) {
        PyObject *p = dget(d, hot_s_pressure);
        if (p == NULL || (pressure = PyObject_IsTrue(p)) < 0)
            return -1;
        if (reaped && pressure && c->live <= at) { /* _reap's: lifted once live bytes are back under the budget */
            if (PyDict_SetItem(d, hot_s_pressure, Py_False) < 0)
                return -1;
            pressure = 0;
        }
    }
    c->allocated += n;
    c->live += total;
    if (c->live > c->peak)
        c->peak = c->live;
    if (collect_at != Py_None && c->live > at && !pressure) { /* _insert's: the budget exceeded wakes the cleaner */
        if (PyDict_SetItem(d, hot_s_pressure, Py_True) < 0)
            return -1;
        PyObject *wake = dget(d, s_wake);
        PyObject *r = wake == NULL ? NULL : PyObject_CallMethodNoArgs(wake, s_set);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    return 0;
}

/* ON_SESSION_CLOSE's _own of a fresh call's outputs (the list `arrays`): the
 * call's batch waits, strongly held, in _batches; a closed registry: the
 * Python code (it deletes them and raises). */
static int
hold_outputs(Wrapper *self, PyObject *arrays, PyObject *out)
{
    PyObject *batch = PyTuple_Pack(2, arrays, self->spec);
    if (batch == NULL)
        return -1;
    /* allocations done: nothing below runs Python code until the append */
    PyObject *closed = PyDict_GetItemWithError(self->rdict, hot_s_closed);
    int rc;
    if (closed == Py_False)
        rc = PyList_Append(self->batches, batch);
    else
        rc = closed == NULL && PyErr_Occurred() ? -1 : own_python(self->registry, out, self->spec);
    Py_DECREF(batch);
    return rc;
}

#define STACK_LEAVES 32 /* more leaves: their refs and sizes on the heap */

/* own_one(out) / own_fresh(out) of a fresh call's outputs; 0, or -1 with an error set. */
static int
own_outputs(Wrapper *self, PyObject *out)
{
    PyObject *reg = self->registry, *producer = self->spec, *d = self->rdict;
    PyObject *leaves = NULL, *const *items;
    PyObject *small[STACK_LEAVES]; /* the leaves of a small tree of exact containers (new references) */
    Sink sink = {NULL, small, 0, STACK_LEAVES};
    Py_ssize_t n, nsmall = 0;
    int got_small = 0, rc = 0;
    PyTypeObject *otp = Py_TYPE(out);
    int c = otp == &PyDict_Type || otp == &PyTuple_Type || otp == &PyList_Type ? 0 : is_concrete_type(otp);
    if (c < 0)
        return -1;
    if (c) { /* one array: own_one */
        if (self->batches != NULL) {
            PyObject *one = PyList_New(1);
            if (one == NULL)
                return -1;
            Py_INCREF(out);
            PyList_SET_ITEM(one, 0, out);
            rc = hold_outputs(self, one, out);
            Py_DECREF(one);
            return rc;
        }
        items = &out;
        n = 1;
    } else if (self->batches == NULL && (got_small = collect_leaves(out, &sink, 0)) != 0) {
        nsmall = sink.n;
        if (got_small < 0) {
            rc = -1;
            goto release_small;
        }
        if (nsmall == 0)
            goto release_small; /* rc 0: nothing to own */
        items = small;
        n = nsmall;
    } else {
        for (Py_ssize_t i = 0; i < sink.n; i++) /* a partial collection */
            Py_DECREF(small[i]);
        if ((leaves = PyList_New(0)) == NULL)
            return -1;
        sink.list = leaves;
        int got = collect_leaves(out, &sink, 0);
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
        if (n == 0) {
            Py_DECREF(leaves);
            return 0;
        }
        if (self->batches != NULL) {
            rc = hold_outputs(self, leaves, out);
            Py_DECREF(leaves);
            return rc;
        }
        items = ((PyListObject *)leaves)->ob_item; /* nothing changes the list below: it is ours */
    }
    PyObject *stack[STACK_LEAVES];
    long long stack_sizes[STACK_LEAVES];
    char stack_young[STACK_LEAVES];
    PyObject **refs = n <= STACK_LEAVES ? stack : PyMem_Calloc((size_t)n, sizeof(PyObject *));
    long long *sizes = n <= STACK_LEAVES ? stack_sizes : PyMem_Calloc((size_t)n, sizeof(long long));
    char *young = n <= STACK_LEAVES ? stack_young : PyMem_Calloc((size_t)n, 1);
    Young gen = {NULL, NULL, 0, 0, 0};
    int prepared = 0;
    PyObject *died = NULL;
    Py_ssize_t made = 0; /* refs[0..made) hold references */
    rc = -1;
    long long total = 0;
    if (refs == NULL || sizes == NULL || young == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    died = self->died;
    Py_INCREF(died);
    for (; made < n; made++) {
        PyObject *aval = aval_of(items[made]);
        if (aval == NULL)
            goto done;
        long long v = size_of_aval(aval);
        Py_DECREF(aval); /* the size cache holds it */
        if (v < 0) {
            rc = v == -1 ? -1 : own_python(reg, out, producer);
            goto done;
        }
        total += v;
        sizes[made] = v;
        /* young: a weak reference without a callback (hot_owned_young_*),
         * when it is a new one; one the array already had (shared: a plain
         * weakref.ref of it exists) gives way to one with the callback */
        PyObject *r = PyWeakref_NewRef(items[made], NULL);
        if (r != NULL && Py_REFCNT(r) > 1) {
            Py_DECREF(r);
            r = PyWeakref_NewRef(items[made], died);
            young[made] = 0;
        } else {
            young[made] = 1;
        }
        if ((refs[made] = r) == NULL)
            goto done;
    }
    /* the previous calls' young entries: their survivors' new references (allocations, before the lock's check) */
    if (hot_owned_young_prepare(self->owned, died, &gen) < 0)
        goto done;
    prepared = 1;
    /* The registry's lock: held (by another thread, or by this one in Python
     * code below us), the Python code waits for it. Free: with the GIL, no
     * other thread can take it while nothing below runs Python code (the
     * table's changes run none, and every allocation that could collect
     * garbage, and so run finalizers, is done), so it is not taken at all;
     * without the GIL it is taken (acquire() without arguments, cheaper than
     * acquire(False)'s parsing: it does not wait unless a thread blocked in
     * acquire took it meanwhile, and then waits as the Python code would). */
    PyObject *t = PyObject_CallNoArgs(self->locked);
    int busy = t == NULL ? -1 : PyObject_IsTrue(t);
    Py_XDECREF(t);
    if (busy != 0) {
        hot_owned_young_abort(self->owned, &gen);
        prepared = 0;
        rc = busy < 0 ? -1 : own_python(reg, out, producer);
        goto done;
    }
#ifdef Py_GIL_DISABLED
    if ((t = PyObject_CallNoArgs(self->acquire)) == NULL)
        goto done;
    Py_DECREF(t);
#endif
    Py_ssize_t young_freed = hot_owned_young_commit(self->owned, &gen);
    prepared = 0;
    PyObject *closed = PyDict_GetItemWithError(d, hot_s_closed);
    if (closed == Py_False)
        rc = enter_locked(self, refs, young, sizes, n, total, producer, young_freed);
#ifdef Py_GIL_DISABLED
    PyObject *exc = hot_take_exception();
    PyObject *r = PyObject_CallNoArgs(self->release);
    if (r == NULL) {
        Py_XDECREF(exc);
        rc = -1;
        goto done;
    }
    Py_DECREF(r);
    hot_give_exception(exc);
#endif
    if (closed != Py_False) {
        if (closed == NULL && PyErr_Occurred())
            rc = -1;
        else /* closed, or raced close(): the Python code deletes them and raises */
            rc = own_python(reg, out, producer);
    }
done: /* (PyMem_Free(NULL) does nothing) */
    if (prepared)
        hot_owned_young_abort(self->owned, &gen);
    for (Py_ssize_t i = 0; i < made; i++)
        Py_DECREF(refs[i]);
    if (refs != stack)
        PyMem_Free(refs);
    if (sizes != stack_sizes)
        PyMem_Free(sizes);
    if (young != stack_young)
        PyMem_Free(young);
    Py_XDECREF(died);
    Py_XDECREF(leaves);
release_small:
    for (Py_ssize_t i = 0; i < nsmall; i++)
        Py_DECREF(small[i]);
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
    PyObject *me = thread_ident(); /* threading.get_ident() */
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

static PyTypeObject WrapCallType;

int
hot_wrap_own(PyObject *wrapcall, PyObject *out)
{
    if (!Py_IS_TYPE(wrapcall, &WrapCallType)) {
        PyErr_SetString(PyExc_TypeError, "jaxsess._core.runtime._hot: hot_wrap_own takes a WrapCall");
        return -1;
    }
    return own_outputs((Wrapper *)wrapcall, out);
}

int
hot_wrap_check(PyObject *op)
{
    return Py_IS_TYPE(op, &WrapCallType);
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
    PyObject *hold = inflight == NULL ? NULL : PyDict_GetItemWithError(rdict, s_hold);
    PyObject *batches = hold == NULL ? NULL : PyDict_GetItemWithError(rdict, s_batches);
    if (batches == NULL || !hot_owned_check(owned) || !PyList_CheckExact(dead) || !PyList_CheckExact(pending)
        || !PyList_CheckExact(inflight) || !PyList_CheckExact(batches)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "WrapCall: the registry lacks _lock, _owned, _dead, _died, _pending, "
                                             "inflight, _hold or _batches, or they are not an OwnedTable and lists");
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
    if (hold != Py_None) { /* ON_SESSION_CLOSE */
        Py_INCREF(batches);
        self->batches = batches;
    }
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
    HOT_INTERN(s_collect_at, "_collect_at");
    HOT_INTERN(s_wake, "_wake");
    HOT_INTERN(s_lock, "_lock");
    HOT_INTERN(s_release, "release");
    HOT_INTERN(s_locked, "locked");
    HOT_INTERN(s_set, "set");
    HOT_INTERN(s_aval, "aval");
    HOT_INTERN(s_own_fresh, "own_fresh");
    HOT_INTERN(s_hold, "_hold");
    HOT_INTERN(s_batches, "_batches");
    if (PyType_Ready(&WrapCallType) < 0)
        return -1;
    return hot_add_type(module, "WrapCall", &WrapCallType);
}
