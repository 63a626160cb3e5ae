/*
 * _hot_owned.c: OwnedTable, the ownership registry's table of owned arrays and
 * its counters in C, part of the extension module jaxsess._core.runtime._hot
 * (see _hot.h). The twin of _resources._OwnedDict (a dict subclass with the
 * same four counters), which is the reference and what the registry uses
 * without the extension.
 *
 * The registry keys an owned array's entry by the id of its weak reference:
 * id(ref) -> (ref, size in bytes, producer). Python code uses the table as
 * that dict (get, pop, [], update, values, items, clear, len); the C twins
 * (_hot_wrap.c's WrapCall, _hot_registry.c's swap_pinned) call
 * hot_owned_insert / hot_owned_pop / hot_owned_contains, which build no
 * Python object: an open-addressing table of (ref, size, producer) slots
 * keyed by the reference's address, with linear probing and backward-shift
 * deletion (no tombstones, so a table that churns as a training loop's
 * outputs come and go never needs rehashing). The counters (allocated and
 * freed arrays, live and peak bytes) are C integers the registry reads as
 * attributes (OwnershipRegistry._live_bytes and friends are properties).
 *
 * No table operation runs Python code (keys are compared by address; the
 * references and producers it releases are weak references and strings,
 * whose deallocation runs nothing), so a C caller holding the GIL sees the
 * table unchanged between two calls it makes. Iteration from Python
 * (values, items, keys) returns a new list: the table may change after.
 */
#include "_hot.h"

typedef struct {
    PyObject *ref; /* the weak reference (a strong reference to it); NULL: empty */
    PyObject *producer;
    long long nbytes;
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    Py_ssize_t mask; /* capacity - 1 (a power of two), or -1 when slots is NULL */
    Py_ssize_t used;
    OwnedCounts counts;
    /* The young generation: weak references without a callback (strong
     * references to them, in entry order) whose entries WrapCall made since
     * the last prune; see hot_owned_young_prepare. */
    PyObject **young;
    Py_ssize_t nyoung, young_cap;
    Py_ssize_t young_mid; /* young[0..mid): generation 1; young[mid..nyoung): generation 0 */
    PyObject **scratch; /* a prune's working arrays, reused (busy: a prune has them) */
    Py_ssize_t scratch_cap;
    int scratch_busy;
} OwnedTable;

static PyTypeObject OwnedTableType;

static inline Py_ssize_t
home(const void *p, Py_ssize_t mask)
{
    size_t h = (size_t)(uintptr_t)p;
    h ^= h >> 17;
    h *= (size_t)0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return (Py_ssize_t)(h & (size_t)mask);
}

/* The slot of `ref`, or -1. */
static inline Py_ssize_t
find(OwnedTable *t, const void *ref)
{
    if (t->used == 0)
        return -1;
    Py_ssize_t i = home(ref, t->mask);
    for (;;) {
        PyObject *r = t->slots[i].ref;
        if (r == ref)
            return i;
        if (r == NULL)
            return -1;
        i = (i + 1) & t->mask;
    }
}

static int
resize(OwnedTable *t, Py_ssize_t cap)
{
    Slot *fresh = PyMem_Calloc((size_t)cap, sizeof(Slot));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Slot *old = t->slots;
    Py_ssize_t oldcap = t->mask + 1;
    t->slots = fresh;
    t->mask = cap - 1;
    for (Py_ssize_t j = 0; j < oldcap; j++) {
        if (old[j].ref == NULL)
            continue;
        Py_ssize_t i = home(old[j].ref, t->mask);
        while (fresh[i].ref != NULL)
            i = (i + 1) & t->mask;
        fresh[i] = old[j];
    }
    PyMem_Free(old);
    return 0;
}

int
hot_owned_check(PyObject *op)
{
    return Py_IS_TYPE(op, &OwnedTableType);
}

OwnedCounts *
hot_owned_counts(PyObject *op)
{
    return &((OwnedTable *)op)->counts;
}

Py_ssize_t
hot_owned_len(PyObject *op)
{
    return ((OwnedTable *)op)->used;
}

int
hot_owned_reserve(PyObject *op, Py_ssize_t n)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_ssize_t need = t->used + n, cap = t->mask + 1;
    if (cap > 0 && need * 2 <= cap) /* at most half full: short probes */
        return 0;
    Py_ssize_t c = 16;
    while (need * 4 > c)
        c *= 2;
    return resize(t, c);
}

int
hot_owned_insert(PyObject *op, PyObject *ref, long long nbytes, PyObject *producer)
{
    OwnedTable *t = (OwnedTable *)op;
    if (hot_owned_reserve(op, 1) < 0)
        return -1;
    Py_ssize_t i = home(ref, t->mask);
    for (;;) {
        PyObject *r = t->slots[i].ref;
        if (r == ref) { /* replaced (as dict[key] = entry) */
            PyObject *p = t->slots[i].producer;
            Py_INCREF(producer);
            t->slots[i].producer = producer;
            t->slots[i].nbytes = nbytes;
            Py_DECREF(p);
            return 0;
        }
        if (r == NULL)
            break;
        i = (i + 1) & t->mask;
    }
    Py_INCREF(ref);
    Py_INCREF(producer);
    t->slots[i].ref = ref;
    t->slots[i].producer = producer;
    t->slots[i].nbytes = nbytes;
    t->used++;
    return 0;
}

/* Empties slot i (backward-shift deletion); the caller owns what it held. */
static void
remove_at(OwnedTable *t, Py_ssize_t i)
{
    Py_ssize_t j = i;
    for (;;) {
        j = (j + 1) & t->mask;
        PyObject *r = t->slots[j].ref;
        if (r == NULL)
            break;
        Py_ssize_t k = home(r, t->mask);
        /* the entry at j stays when its home lies cyclically in (i, j] */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        t->slots[i] = t->slots[j];
        i = j;
    }
    t->slots[i].ref = NULL;
    t->slots[i].producer = NULL;
    t->slots[i].nbytes = 0;
    t->used--;
}

int
hot_owned_pop(PyObject *op, const void *ref, long long *nbytes)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_ssize_t i = find(t, ref);
    if (i < 0)
        return 0;
    PyObject *r = t->slots[i].ref, *p = t->slots[i].producer;
    *nbytes = t->slots[i].nbytes;
    remove_at(t, i);
    Py_DECREF(r);
    Py_DECREF(p);
    return 1;
}

int
hot_owned_contains(PyObject *op, const void *ref)
{
    return find((OwnedTable *)op, ref) >= 0;
}

/* -- the young generations -------------------------------------------------------------
 *
 * WrapCall enters a call's output arrays under weak references *without* a
 * callback and lists them here, as generation 0. In the common loops
 * (`state = step(state)`, `y = f(x)`) an output is still referenced during
 * the next call (it is that call's input, or the name is rebound only when
 * the call returns) and dies right after: so each prune (every WrapCall,
 * before it counts its own outputs) drops the entries of arrays found dead
 * in either generation, counted freed (a pointer comparison each: the peak
 * stays exact), moves generation 0's survivors to generation 1, and
 * promotes generation 1's survivors: re-entered under a new weak reference
 * whose callback is the registry's _died, as every other owned array is.
 * That spares the arrays of those loops the callback their death would run
 * and the dead list it would append to. OwnershipRegistry._reap prunes too
 * (prune_young), so that whatever reads the counters after a reap (stats(),
 * sweeps, the budget) sees them exact. */

/* 1: `ref`'s referent is alive (*obj: a new reference to it); 0: dead; -1: error. */
static inline int
referent(PyObject *ref, PyObject **obj)
{
#if PY_VERSION_HEX >= 0x030D0000
    return PyWeakref_GetRef(ref, obj);
#else
    PyObject *o = PyWeakref_GetObject(ref); /* borrowed */
    *obj = NULL;
    if (o == NULL)
        return -1;
    if (o == Py_None)
        return 0;
    Py_INCREF(o);
    *obj = o;
    return 1;
#endif
}

int
hot_owned_young_reserve(PyObject *op, Py_ssize_t n)
{
    OwnedTable *t = (OwnedTable *)op;
    if (t->nyoung + n <= t->young_cap)
        return 0;
    Py_ssize_t cap = t->young_cap < 16 ? 16 : t->young_cap;
    while (cap < t->nyoung + n)
        cap *= 2;
    PyObject **y = PyMem_Realloc(t->young, (size_t)cap * sizeof(PyObject *));
    if (y == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    t->young = y;
    t->young_cap = cap;
    return 0;
}

void
hot_owned_young_push(PyObject *op, PyObject *ref)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_INCREF(ref);
    t->young[t->nyoung++] = ref;
}

/* Releases a prune's working arrays (prepare's). */
static void
release_work(OwnedTable *t, PyObject **mem)
{
    if (mem == t->scratch)
        t->scratch_busy = 0;
    else
        PyMem_Free(mem);
}

void
hot_owned_young_abort(PyObject *op, Young *y)
{
    OwnedTable *t = (OwnedTable *)op;
    /* back in front of what was listed meanwhile (room: reserved by prepare) */
    if (y->n > 0) {
        memmove(t->young + y->n, t->young, (size_t)t->nyoung * sizeof(PyObject *));
        memcpy(t->young, y->old, (size_t)y->n * sizeof(PyObject *));
        t->nyoung += y->n;
        t->young_mid = y->mid;
    }
    for (Py_ssize_t i = 0; i < y->n; i++)
        Py_XDECREF(y->fresh[i]);
    if (y->old != NULL)
        release_work(t, y->old);
    y->old = y->fresh = NULL;
    y->n = 0;
}

int
hot_owned_young_prepare(PyObject *op, PyObject *died, Young *y)
{
    OwnedTable *t = (OwnedTable *)op;
    y->n = y->mid = 0;
    y->old = y->fresh = NULL;
    Py_ssize_t n = t->nyoung;
    if (n == 0)
        return 0;
    PyObject **mem;
    if (!t->scratch_busy && t->scratch_cap >= 2 * n) {
        mem = t->scratch;
        memset(mem + n, 0, (size_t)n * sizeof(PyObject *));
        t->scratch_busy = 1;
    } else if (!t->scratch_busy) { /* grown (the old one released) */
        Py_ssize_t cap = 2 * n < 64 ? 64 : 4 * n;
        mem = PyMem_Calloc((size_t)cap, sizeof(PyObject *));
        if (mem == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(t->scratch);
        t->scratch = mem;
        t->scratch_cap = cap;
        t->scratch_busy = 1;
    } else if ((mem = PyMem_Calloc((size_t)(2 * n), sizeof(PyObject *))) == NULL) { /* a prune within a prune */
        PyErr_NoMemory();
        return -1;
    }
    /* taken out first: what runs below (a collection) cannot see them twice */
    memcpy(mem, t->young, (size_t)n * sizeof(PyObject *));
    y->old = mem;
    y->fresh = mem + n;
    y->n = n;
    y->mid = t->young_mid;
    t->nyoung = t->young_mid = 0;
    if (hot_owned_young_reserve(op, n) < 0) { /* room to put them back */
        hot_owned_young_abort(op, y);
        return -1;
    }
    /* fresh[i]: NULL (dead, or no longer owned: dropped), old[i] itself (generation 0 alive: it
     * stays young), or generation 1's survivor's new weak reference with the callback */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *obj;
        int alive = referent(y->old[i], &obj);
        if (alive < 0) {
            hot_owned_young_abort(op, y);
            return -1;
        }
        if (!alive)
            continue;
        if (i >= y->mid) { /* (commit finds whether it is still owned) */
            Py_DECREF(obj);
            Py_INCREF(y->old[i]);
            y->fresh[i] = y->old[i];
            continue;
        }
        if (!hot_owned_contains(op, y->old[i])) {
            Py_DECREF(obj);
            continue;
        }
        y->fresh[i] = PyWeakref_NewRef(obj, died);
        Py_DECREF(obj);
        if (y->fresh[i] == NULL) {
            hot_owned_young_abort(op, y);
            return -1;
        }
    }
    return 0;
}

Py_ssize_t
hot_owned_young_commit(PyObject *op, Young *y)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_ssize_t freed = 0;
    long long bytes = 0;
    /* generation 0's survivors go first in the list (room: reserved by
     * prepare), as generation 1, in front of anything listed meanwhile */
    Py_ssize_t later = t->nyoung, kept = 0;
    PyObject **keep = y->fresh; /* reused: fresh[i] is read before keep[kept <= i] is written */
    for (Py_ssize_t i = 0; i < y->n; i++) {
        PyObject *old = y->old[i], *fresh = y->fresh[i], *obj = NULL;
        if (fresh == old) { /* stays young (should it have died, or left the table, since
                             * prepare, the next prune finds it): our two references become
                             * the list's one */
            Py_DECREF(fresh);
            keep[kept++] = old;
            continue;
        }
        Py_ssize_t k = find(t, old);
        if (k < 0) { /* no longer owned */
            Py_XDECREF(fresh);
            Py_DECREF(old);
            continue;
        }
        int alive = fresh != NULL && referent(fresh, &obj) > 0;
        if (fresh != NULL && !alive)
            PyErr_Clear(); /* (referent cannot fail on a weak reference) */
        Py_XDECREF(obj); /* alive: its array is referenced elsewhere too (runs no code) */
        Slot s = t->slots[k];
        remove_at(t, k);
        if (alive) {
            hot_owned_insert(op, fresh, s.nbytes, s.producer); /* after the removal: no growth */
        } else { /* died: before the prune, or since prepare (then fresh's callback listed it dead too) */
            freed++;
            bytes += s.nbytes;
        }
        Py_DECREF(s.ref);
        Py_DECREF(s.producer);
        Py_XDECREF(fresh);
        if (fresh != old)
            Py_DECREF(old);
    }
    if (kept > 0) {
        memmove(t->young + kept, t->young, (size_t)later * sizeof(PyObject *));
        memcpy(t->young, keep, (size_t)kept * sizeof(PyObject *));
        t->nyoung += kept;
    }
    t->young_mid = kept;
    if (y->old != NULL)
        release_work(t, y->old);
    y->old = y->fresh = NULL;
    y->n = y->mid = 0;
    t->counts.freed += freed;
    t->counts.live -= bytes;
    return freed;
}

/* -- the Python face: the dict the registry's Python code uses ------------------------ */

static PyObject *
entry_of(Slot *s)
{
    PyObject *nb = PyLong_FromLongLong(s->nbytes);
    if (nb == NULL)
        return NULL;
    PyObject *e = PyTuple_Pack(3, s->ref, nb, s->producer);
    Py_DECREF(nb);
    return e;
}

/* The address a key (an int: id(ref)) stands for; NULL with an error set when it is not an int. */
static void *
key_ptr(PyObject *key)
{
    if (!PyLong_Check(key)) {
        PyErr_Format(PyExc_TypeError, "OwnedTable keys are ints (id of a weak reference), not %.100s",
                     Py_TYPE(key)->tp_name);
        return NULL;
    }
    void *p = PyLong_AsVoidPtr(key);
    if (p == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_KeyError, "0");
    return p;
}

static PyObject *
table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "OwnedTable() takes no arguments");
        return NULL;
    }
    OwnedTable *t = (OwnedTable *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    t->slots = NULL;
    t->mask = -1;
    t->used = 0;
    memset(&t->counts, 0, sizeof t->counts);
    t->young = NULL;
    t->nyoung = t->young_cap = t->young_mid = 0;
    t->scratch = NULL;
    t->scratch_cap = 0;
    t->scratch_busy = 0;
    return (PyObject *)t;
}

/* Drops every entry; what they held is released after the table is empty. */
static void
clear_all(OwnedTable *t)
{
    Slot *old = t->slots;
    Py_ssize_t cap = t->mask + 1;
    PyObject **young = t->young;
    Py_ssize_t nyoung = t->nyoung;
    t->slots = NULL;
    t->mask = -1;
    t->used = 0;
    t->young = NULL;
    t->nyoung = t->young_cap = t->young_mid = 0;
    for (Py_ssize_t j = 0; j < nyoung; j++)
        Py_DECREF(young[j]);
    PyMem_Free(young);
    for (Py_ssize_t j = 0; j < cap; j++) {
        if (old[j].ref != NULL) {
            Py_DECREF(old[j].ref);
            Py_DECREF(old[j].producer);
        }
    }
    PyMem_Free(old);
}

static int
table_traverse(OwnedTable *t, visitproc visit, void *arg)
{
    for (Py_ssize_t j = 0; j <= t->mask; j++) {
        Py_VISIT(t->slots[j].ref);
        Py_VISIT(t->slots[j].producer);
    }
    for (Py_ssize_t j = 0; j < t->nyoung; j++)
        Py_VISIT(t->young[j]);
    return 0;
}

static int
table_tp_clear(OwnedTable *t)
{
    clear_all(t);
    return 0;
}

static void
table_dealloc(OwnedTable *t)
{
    PyObject_GC_UnTrack(t);
    clear_all(t);
    PyMem_Free(t->scratch);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static Py_ssize_t
table_length(OwnedTable *t)
{
    return t->used;
}

static PyObject *
table_subscript(OwnedTable *t, PyObject *key)
{
    void *p = key_ptr(key);
    if (p == NULL)
        return NULL;
    Py_ssize_t i = find(t, p);
    if (i < 0) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return entry_of(&t->slots[i]);
}

/* table[key] = (ref, nbytes, producer), key == id(ref); del table[key]. */
static int
table_ass_subscript(OwnedTable *t, PyObject *key, PyObject *value)
{
    void *p = key_ptr(key);
    if (p == NULL)
        return -1;
    if (value == NULL) {
        long long nb;
        if (!hot_owned_pop((PyObject *)t, p, &nb)) {
            PyErr_SetObject(PyExc_KeyError, key);
            return -1;
        }
        return 0;
    }
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 3 || PyTuple_GET_ITEM(value, 0) != (PyObject *)p) {
        PyErr_SetString(PyExc_ValueError, "an OwnedTable entry is (ref, nbytes, producer) under the key id(ref)");
        return -1;
    }
    long long nb = PyLong_AsLongLong(PyTuple_GET_ITEM(value, 1));
    if (nb == -1 && PyErr_Occurred())
        return -1;
    return hot_owned_insert((PyObject *)t, (PyObject *)p, nb, PyTuple_GET_ITEM(value, 2));
}

static int
table_contains(OwnedTable *t, PyObject *key)
{
    void *p = key_ptr(key);
    if (p == NULL) {
        if (PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    return find(t, p) >= 0;
}

/* The slot of the key args[0] of get/pop(key[, default]): >= 0; -1: no
 * such entry; -2: an error is set. */
static Py_ssize_t
slot_of_arg(OwnedTable *t, const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "%s expected 1 or 2 arguments, got %zd", name, nargs);
        return -2;
    }
    int has = table_contains(t, args[0]);
    if (has < 0)
        return -2;
    return has ? find(t, PyLong_AsVoidPtr(args[0])) : -1;
}

static PyObject *
table_get(OwnedTable *t, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t i = slot_of_arg(t, "get", args, nargs);
    if (i >= 0)
        return entry_of(&t->slots[i]);
    if (i == -2)
        return NULL;
    PyObject *d = nargs > 1 ? args[1] : Py_None;
    Py_INCREF(d);
    return d;
}

static PyObject *
table_pop(OwnedTable *t, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t i = slot_of_arg(t, "pop", args, nargs);
    if (i == -2)
        return NULL;
    if (i == -1) {
        if (nargs > 1) {
            Py_INCREF(args[1]);
            return args[1];
        }
        PyErr_SetObject(PyExc_KeyError, args[0]);
        return NULL;
    }
    PyObject *e = entry_of(&t->slots[i]);
    if (e == NULL)
        return NULL;
    PyObject *r = t->slots[i].ref, *p = t->slots[i].producer;
    remove_at(t, i);
    Py_DECREF(r); /* the entry holds them too */
    Py_DECREF(p);
    return e;
}

/* update(iterable of (key, entry) pairs), as dict.update with pairs. */
static PyObject *
table_update(OwnedTable *t, PyObject *pairs)
{
    PyObject *it = PyObject_GetIter(pairs);
    if (it == NULL)
        return NULL;
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        int rc;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
            PyErr_SetString(PyExc_TypeError, "OwnedTable.update takes (key, entry) pairs");
            rc = -1;
        } else {
            rc = table_ass_subscript(t, PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1));
        }
        Py_DECREF(item);
        if (rc < 0) {
            Py_DECREF(it);
            return NULL;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* what: 0 keys, 1 values, 2 items: a new list. */
static PyObject *
listing(OwnedTable *t, int what)
{
    PyObject *out = PyList_New(t->used);
    if (out == NULL)
        return NULL;
    Py_ssize_t n = 0, cap = t->mask + 1, used = t->used;
    for (Py_ssize_t j = 0; j < cap && n < used; j++) {
        Slot *s = &t->slots[j];
        if (s->ref == NULL)
            continue;
        PyObject *v, *k = NULL, *e = NULL;
        if (what != 1 && (k = PyLong_FromVoidPtr(s->ref)) == NULL)
            goto fail;
        if (what != 0 && (e = entry_of(s)) == NULL) {
            Py_XDECREF(k);
            goto fail;
        }
        if (what == 2) {
            v = PyTuple_Pack(2, k, e);
            Py_DECREF(k);
            Py_DECREF(e);
            if (v == NULL)
                goto fail;
        } else {
            v = what == 0 ? k : e;
        }
        PyList_SET_ITEM(out, n++, v);
        /* entry_of/PyLong allocate no tracked object... but a tuple is tracked: a
         * collection could run Python code that changes the table; stop there */
        if (t->used != used || t->mask + 1 != cap)
            break;
    }
    if (n != PyList_GET_SIZE(out) && PyList_SetSlice(out, n, PyList_GET_SIZE(out), NULL) < 0)
        goto fail;
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *
table_keys(OwnedTable *t, PyObject *Py_UNUSED(ignored))
{
    return listing(t, 0);
}

static PyObject *
table_values(OwnedTable *t, PyObject *Py_UNUSED(ignored))
{
    return listing(t, 1);
}

static PyObject *
table_items(OwnedTable *t, PyObject *Py_UNUSED(ignored))
{
    return listing(t, 2);
}

static PyObject *
table_clear_method(OwnedTable *t, PyObject *Py_UNUSED(ignored))
{
    clear_all(t);
    Py_RETURN_NONE;
}

/* prune_young(died): the young generation's prune (hot_owned_young_*); the number freed. */
static PyObject *
table_prune_young(OwnedTable *t, PyObject *died)
{
    if (!PyCallable_Check(died)) {
        PyErr_SetString(PyExc_TypeError, "prune_young takes the weak references' callback");
        return NULL;
    }
    Young y;
    if (hot_owned_young_prepare((PyObject *)t, died, &y) < 0)
        return NULL;
    return PyLong_FromSsize_t(hot_owned_young_commit((PyObject *)t, &y));
}

static PyObject *
table_young(OwnedTable *t, void *closure)
{
    return PyLong_FromSsize_t(t->nyoung);
}

static PyObject *
table_iter(OwnedTable *t)
{
    PyObject *keys = listing(t, 0);
    if (keys == NULL)
        return NULL;
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

static PyMethodDef table_methods[] = {
    {"get", (PyCFunction)(void (*)(void))table_get, METH_FASTCALL, "get(key, default=None): the entry, or default"},
    {"pop", (PyCFunction)(void (*)(void))table_pop, METH_FASTCALL, "pop(key[, default]): removes and returns the entry"},
    {"update", (PyCFunction)table_update, METH_O, "update(pairs): enters (key, entry) pairs"},
    {"keys", (PyCFunction)table_keys, METH_NOARGS, "a list of the keys"},
    {"values", (PyCFunction)table_values, METH_NOARGS, "a list of the entries"},
    {"items", (PyCFunction)table_items, METH_NOARGS, "a list of (key, entry) pairs"},
    {"clear", (PyCFunction)table_clear_method, METH_NOARGS, "drops every entry (the counters stay)"},
    {"prune_young", (PyCFunction)table_prune_young, METH_O,
     "prune_young(died): drops the young entries whose arrays died (counted freed), re-enters the others "
     "under a weak reference whose callback is died; returns the number freed"},
    {NULL},
};

static PyMemberDef table_members[] = {
    {"allocated", T_LONGLONG, offsetof(OwnedTable, counts.allocated), 0, "arrays entered, all time"},
    {"freed", T_LONGLONG, offsetof(OwnedTable, counts.freed), 0, "arrays freed, all time"},
    {"live", T_LONGLONG, offsetof(OwnedTable, counts.live), 0, "bytes of the arrays alive"},
    {"peak", T_LONGLONG, offsetof(OwnedTable, counts.peak), 0, "the most live bytes so far"},
    {NULL},
};

static PyGetSetDef table_getset[] = {
    {"young", (getter)table_young, NULL, "the number of entries in the young generation", NULL},
    {NULL},
};

static PyMappingMethods table_as_mapping = {
    .mp_length = (lenfunc)table_length,
    .mp_subscript = (binaryfunc)table_subscript,
    .mp_ass_subscript = (objobjargproc)table_ass_subscript,
};

static PySequenceMethods table_as_sequence = {
    .sq_contains = (objobjproc)table_contains,
};

static PyTypeObject OwnedTableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "jaxsess._core.runtime._hot.OwnedTable",
    .tp_doc = "The ownership registry's owned arrays, id(ref) -> (ref, nbytes, producer), and its counters.",
    .tp_basicsize = sizeof(OwnedTable),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = table_new,
    .tp_dealloc = (destructor)table_dealloc,
    .tp_traverse = (traverseproc)table_traverse,
    .tp_clear = (inquiry)table_tp_clear,
    .tp_as_mapping = &table_as_mapping,
    .tp_as_sequence = &table_as_sequence,
    .tp_iter = (getiterfunc)table_iter,
    .tp_methods = table_methods,
    .tp_members = table_members,
    .tp_getset = table_getset,
};

/* OwnedTable into the module; 0, or -1 with an error set. */
int
hot_owned_init(PyObject *module)
{
    if (PyType_Ready(&OwnedTableType) < 0)
        return -1;
    return hot_add_type(module, "OwnedTable", &OwnedTableType);
}
