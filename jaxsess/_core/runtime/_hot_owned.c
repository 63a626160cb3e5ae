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
 * outputs come and go never needs rehashing). The entries WrapCall makes are
 * first only listed, as young entries, in no slot: a lookup scans them, or
 * hashes them all first when there are many (see "the young generations").
 * The counters (allocated and
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
    /* The young generations: the entries WrapCall made under weak
     * references without a callback since the last prunes, in entry order;
     * see hot_owned_young_prepare. `unhashed` of them are in no slot (a
     * lookup scans them, or hashes them all first when they are many). */
    YoungEntry *young;
    Py_ssize_t nyoung, young_cap;
    Py_ssize_t young_mid; /* young[0..mid): generation 1; young[mid..nyoung): generation 0 */
    Py_ssize_t unhashed;
    char *scratch; /* a prune's working arrays, reused (busy: a prune has them) */
    Py_ssize_t scratch_cap; /* in entries */
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
    return ((OwnedTable *)op)->used + ((OwnedTable *)op)->unhashed;
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

/* Enters (ref, nbytes, producer) in the hashed slots, replacing the entry of ref there. */
static int
hash_insert(OwnedTable *t, PyObject *ref, long long nbytes, PyObject *producer)
{
    if (hot_owned_reserve((PyObject *)t, 1) < 0)
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

int
hot_owned_insert(PyObject *op, PyObject *ref, long long nbytes, PyObject *producer)
{
    return hash_insert((OwnedTable *)op, ref, nbytes, producer);
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

/* Enters every unhashed young entry in the slots too; 0, or -1 with MemoryError set. */
static int
hash_young(OwnedTable *t)
{
    if (t->unhashed == 0)
        return 0;
    if (hot_owned_reserve((PyObject *)t, t->unhashed) < 0)
        return -1;
    for (Py_ssize_t j = 0; j < t->nyoung; j++) {
        YoungEntry *e = &t->young[j];
        if (e->ref != NULL && !e->hashed) {
            hash_insert(t, e->ref, e->nbytes, e->producer); /* reserved: cannot fail */
            e->hashed = 1;
        }
    }
    t->unhashed = 0;
    return 0;
}

#define SCAN_UNHASHED 16 /* more unhashed young entries: a lookup that misses the slots hashes them */

/* Where ref's entry is: a slot (*slot >= 0), an unhashed young entry
 * (*young >= 0), or nowhere (both -1). */
static void
locate(OwnedTable *t, const void *ref, Py_ssize_t *slot, Py_ssize_t *young)
{
    *young = -1;
    if ((*slot = find(t, ref)) >= 0 || t->unhashed == 0)
        return;
    if (t->unhashed > SCAN_UNHASHED) {
        if (hash_young(t) == 0) {
            *slot = find(t, ref);
            return;
        }
        PyErr_Clear(); /* no memory to hash them: scanned */
    }
    for (Py_ssize_t j = 0; j < t->nyoung; j++) {
        if (t->young[j].ref == ref && !t->young[j].hashed) {
            *young = j;
            return;
        }
    }
}

/* The entry a locate found (one of the two indices is >= 0). */
static inline Slot
located(OwnedTable *t, Py_ssize_t slot, Py_ssize_t young)
{
    if (slot >= 0)
        return t->slots[slot];
    YoungEntry *e = &t->young[young];
    Slot s = {e->ref, e->producer, e->nbytes};
    return s;
}

/* Removes the entry a locate found; the caller owns what it held. */
static void
remove_located(OwnedTable *t, Py_ssize_t slot, Py_ssize_t young)
{
    if (slot >= 0) {
        remove_at(t, slot);
        return;
    }
    YoungEntry *e = &t->young[young]; /* a hole (the prune drops it) */
    e->ref = e->producer = NULL;
    e->nbytes = 0;
    t->unhashed--;
}

int
hot_owned_pop(PyObject *op, const void *ref, long long *nbytes)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_ssize_t i, y;
    locate(t, ref, &i, &y);
    if (i < 0 && y < 0)
        return 0;
    Slot s = located(t, i, y);
    *nbytes = s.nbytes;
    remove_located(t, i, y);
    Py_DECREF(s.ref);
    Py_DECREF(s.producer);
    return 1;
}

int
hot_owned_contains(PyObject *op, const void *ref)
{
    Py_ssize_t i, y;
    locate((OwnedTable *)op, ref, &i, &y);
    return i >= 0 || y >= 0;
}

/* -- the young generations -------------------------------------------------------------
 *
 * WrapCall enters a call's output arrays under weak references *without* a
 * callback and lists them here, as generation 0, without hashing them (a
 * lookup scans the few there are, or hashes them when they are many). In
 * the common loops (`state = step(state)`, `y = f(x)`) an output is still
 * referenced during the next call (it is that call's input, or the name is
 * rebound only when the call returns) and dies right after: so each prune
 * (every WrapCall, before it counts its own outputs) drops the entries of
 * arrays found dead in either generation, counted freed (a pointer
 * comparison each: the peak stays exact), moves generation 0's survivors to
 * generation 1, and promotes generation 1's survivors: re-entered under a
 * new weak reference whose callback is the registry's _died, as every other
 * owned array is. That spares the arrays of those loops the callback their
 * death would run, the dead list it would append to, and the hashed slots.
 * OwnershipRegistry._reap prunes too (prune_young), so that whatever reads
 * the counters after a reap (stats(), sweeps, the budget) sees them exact. */

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

/* 1: the referent of `ref` (a weak reference) is alive; 0: dead. */
static inline int
alive(PyObject *ref)
{
    PyObject *obj;
    int a = referent(ref, &obj);
    if (a < 0)
        PyErr_Clear(); /* (referent cannot fail on a weak reference) */
    Py_XDECREF(obj); /* alive: referenced elsewhere too (runs no code) */
    return a > 0;
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
    YoungEntry *y = PyMem_Realloc(t->young, (size_t)cap * sizeof(YoungEntry));
    if (y == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    t->young = y;
    t->young_cap = cap;
    return 0;
}

void
hot_owned_young_push(PyObject *op, PyObject *ref, long long nbytes, PyObject *producer)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_INCREF(ref);
    Py_INCREF(producer);
    YoungEntry *e = &t->young[t->nyoung++];
    e->ref = ref;
    e->producer = producer;
    e->nbytes = nbytes;
    e->hashed = 0;
    t->unhashed++;
}

/* Releases a prune's working arrays (prepare's). */
static void
release_work(OwnedTable *t, YoungEntry *mem)
{
    if ((char *)mem == t->scratch)
        t->scratch_busy = 0;
    else
        PyMem_Free(mem);
}

/* The young entry's references released (a hole holds none). */
static inline void
release_entry(YoungEntry *e)
{
    Py_XDECREF(e->ref);
    Py_XDECREF(e->producer);
}

void
hot_owned_young_abort(PyObject *op, Young *y)
{
    OwnedTable *t = (OwnedTable *)op;
    if (y->fast) { /* nothing was taken out */
        y->fast = 0;
        y->n = 0;
        return;
    }
    /* back in front of what was listed meanwhile (room: reserved by prepare) */
    if (y->n > 0) {
        memmove(t->young + y->n, t->young, (size_t)t->nyoung * sizeof(YoungEntry));
        memcpy(t->young, y->old, (size_t)y->n * sizeof(YoungEntry));
        t->nyoung += y->n;
        t->young_mid = y->mid;
    }
    for (Py_ssize_t i = 0; i < y->n; i++)
        Py_XDECREF(y->fresh[i]);
    if (y->old != NULL)
        release_work(t, y->old);
    y->old = NULL;
    y->fresh = NULL;
    y->n = 0;
}

/* 1: the young entry e is still owned (a hole is not; a hashed one whose slot left is not). */
static inline int
still_owned(OwnedTable *t, YoungEntry *e)
{
    return e->ref != NULL && (!e->hashed || find(t, e->ref) >= 0);
}

int
hot_owned_young_prepare(PyObject *op, PyObject *died, Young *y)
{
    OwnedTable *t = (OwnedTable *)op;
    y->n = y->mid = 0;
    y->old = NULL;
    y->fresh = NULL;
    y->fast = 0;
    Py_ssize_t n = t->nyoung;
    if (n == 0)
        return 0;
    /* The common case: no generation-1 entry survives, so nothing needs a
     * new weak reference: commit prunes the list in place. */
    int survivors = 0;
    for (Py_ssize_t i = 0; i < t->young_mid && !survivors; i++)
        survivors = t->young[i].ref != NULL && alive(t->young[i].ref) && still_owned(t, &t->young[i]);
    if (!survivors) {
        y->fast = 1;
        y->n = n;
        return 0;
    }
    /* Survivors: every entry hashed first (the list is taken out below, and
     * a lookup must still find them meanwhile) */
    if (hash_young(t) < 0)
        return -1;
    YoungEntry *mem;
    size_t per = sizeof(YoungEntry) + sizeof(PyObject *);
    if (!t->scratch_busy && t->scratch_cap >= n) {
        mem = (YoungEntry *)t->scratch;
        t->scratch_busy = 1;
    } else if (!t->scratch_busy) { /* grown (the old one released) */
        Py_ssize_t cap = n < 32 ? 32 : 2 * n;
        mem = PyMem_Malloc((size_t)cap * per);
        if (mem == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(t->scratch);
        t->scratch = (char *)mem;
        t->scratch_cap = cap;
        t->scratch_busy = 1;
    } else if ((mem = PyMem_Malloc((size_t)n * per)) == NULL) { /* a prune within a prune */
        PyErr_NoMemory();
        return -1;
    }
    /* taken out first: what runs below (a collection) cannot see them twice */
    memcpy(mem, t->young, (size_t)n * sizeof(YoungEntry));
    y->old = mem;
    y->fresh = (PyObject **)(mem + n);
    memset(y->fresh, 0, (size_t)n * sizeof(PyObject *));
    y->n = n;
    y->mid = t->young_mid;
    t->nyoung = t->young_mid = 0;
    if (hot_owned_young_reserve(op, n) < 0) { /* room to put them back */
        hot_owned_young_abort(op, y);
        return -1;
    }
    /* fresh[i]: NULL (dead, a hole, or no longer owned: dropped), old[i].ref itself (generation 0
     * alive: it stays young), or generation 1's survivor's new weak reference with the callback */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *obj, *ref = y->old[i].ref;
        if (ref == NULL)
            continue;
        int a = referent(ref, &obj);
        if (a < 0) {
            hot_owned_young_abort(op, y);
            return -1;
        }
        if (!a)
            continue;
        if (i >= y->mid) { /* (commit finds whether it is still owned) */
            Py_DECREF(obj);
            Py_INCREF(ref);
            y->fresh[i] = ref;
            continue;
        }
        if (find(t, ref) < 0) {
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

/* The fast commit: the list pruned in place (no generation-1 survivor, or one
 * that commit keeps young until the next prune). */
static Py_ssize_t
commit_in_place(OwnedTable *t, Py_ssize_t n, long long *bytes)
{
    Py_ssize_t freed = 0, kept = 0, mid = t->young_mid;
    for (Py_ssize_t i = 0; i < n; i++) {
        YoungEntry e = t->young[i];
        if (e.ref == NULL) /* a hole: its entry was popped */
            continue;
        if (alive(e.ref)) {
            if (i >= mid || still_owned(t, &e)) /* (generation 1: it left the table, prepare saw) */
                t->young[kept++] = e;
            else
                release_entry(&e);
            continue;
        }
        if (!e.hashed) {
            t->unhashed--;
            freed++;
            *bytes += e.nbytes;
        } else {
            Py_ssize_t k = find(t, e.ref);
            if (k >= 0) {
                Slot s = t->slots[k];
                remove_at(t, k);
                freed++;
                *bytes += s.nbytes;
                Py_DECREF(s.ref);
                Py_DECREF(s.producer);
            }
        }
        release_entry(&e); /* a dead referent's weak reference and a string: runs no code */
    }
    if (t->nyoung > n) /* listed since prepare (nothing does, today) */
        memmove(t->young + kept, t->young + n, (size_t)(t->nyoung - n) * sizeof(YoungEntry));
    t->nyoung = kept + (t->nyoung - n);
    t->young_mid = kept;
    return freed;
}

Py_ssize_t
hot_owned_young_commit(PyObject *op, Young *y)
{
    OwnedTable *t = (OwnedTable *)op;
    Py_ssize_t freed = 0;
    long long bytes = 0;
    if (y->fast) {
        freed = commit_in_place(t, y->n, &bytes);
        y->fast = 0;
        y->n = 0;
        t->counts.freed += freed;
        t->counts.live -= bytes;
        return freed;
    }
    /* generation 0's survivors go first in the list (room: reserved by
     * prepare), as generation 1, in front of anything listed meanwhile */
    Py_ssize_t later = t->nyoung, kept = 0;
    YoungEntry *keep = y->old; /* reused: old[i] is read before keep[kept <= i] is written */
    for (Py_ssize_t i = 0; i < y->n; i++) {
        YoungEntry old = y->old[i];
        PyObject *fresh = y->fresh[i], *obj = NULL;
        if (old.ref == NULL) /* a hole */
            continue;
        if (fresh == old.ref) { /* stays young (should it have died, or left the table, since
                                 * prepare, the next prune finds it): our two references become
                                 * the list's one */
            Py_DECREF(fresh);
            keep[kept++] = old;
            continue;
        }
        Py_ssize_t k = find(t, old.ref); /* (prepare hashed every entry) */
        if (k < 0) { /* no longer owned */
            Py_XDECREF(fresh);
            release_entry(&old);
            continue;
        }
        int is_alive = fresh != NULL && referent(fresh, &obj) > 0;
        if (fresh != NULL && !is_alive)
            PyErr_Clear(); /* (referent cannot fail on a weak reference) */
        Py_XDECREF(obj); /* alive: its array is referenced elsewhere too (runs no code) */
        Slot s = t->slots[k];
        remove_at(t, k);
        if (is_alive) {
            hash_insert(t, fresh, s.nbytes, s.producer); /* after the removal: no growth */
        } else { /* died: before the prune, or since prepare (then fresh's callback listed it dead too) */
            freed++;
            bytes += s.nbytes;
        }
        Py_DECREF(s.ref);
        Py_DECREF(s.producer);
        Py_XDECREF(fresh);
        release_entry(&old);
    }
    if (kept > 0) {
        memmove(t->young + kept, t->young, (size_t)later * sizeof(YoungEntry));
        memcpy(t->young, keep, (size_t)kept * sizeof(YoungEntry));
        t->nyoung += kept;
    }
    t->young_mid = kept;
    if (y->old != NULL)
        release_work(t, y->old);
    y->old = NULL;
    y->fresh = NULL;
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
    t->nyoung = t->young_cap = t->young_mid = t->unhashed = 0;
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
    YoungEntry *young = t->young;
    Py_ssize_t nyoung = t->nyoung;
    t->slots = NULL;
    t->mask = -1;
    t->used = 0;
    t->young = NULL;
    t->nyoung = t->young_cap = t->young_mid = t->unhashed = 0;
    for (Py_ssize_t j = 0; j < nyoung; j++)
        release_entry(&young[j]);
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
    for (Py_ssize_t j = 0; j < t->nyoung; j++) {
        Py_VISIT(t->young[j].ref);
        Py_VISIT(t->young[j].producer);
    }
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
    return t->used + t->unhashed;
}

static PyObject *
table_subscript(OwnedTable *t, PyObject *key)
{
    void *p = key_ptr(key);
    if (p == NULL)
        return NULL;
    Py_ssize_t i, y;
    locate(t, p, &i, &y);
    if (i < 0 && y < 0) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    Slot s = located(t, i, y);
    return entry_of(&s);
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
    Py_ssize_t i, y;
    locate(t, p, &i, &y);
    if (y >= 0) { /* replaced in its young entry */
        YoungEntry *e = &t->young[y];
        PyObject *old = e->producer;
        Py_INCREF(PyTuple_GET_ITEM(value, 2));
        e->producer = PyTuple_GET_ITEM(value, 2);
        e->nbytes = nb;
        Py_DECREF(old);
        return 0;
    }
    return hash_insert(t, (PyObject *)p, nb, PyTuple_GET_ITEM(value, 2));
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
    return hot_owned_contains((PyObject *)t, p);
}

/* Locates the key args[0] of get/pop(key[, default]): 0 (*slot or *young
 * >= 0 when found), or -1 with an error set. */
static int
locate_arg(OwnedTable *t, const char *name, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t *slot,
           Py_ssize_t *young)
{
    *slot = *young = -1;
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "%s expected 1 or 2 arguments, got %zd", name, nargs);
        return -1;
    }
    void *p = key_ptr(args[0]);
    if (p == NULL) {
        if (PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    locate(t, p, slot, young);
    return 0;
}

static PyObject *
table_get(OwnedTable *t, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t i, y;
    if (locate_arg(t, "get", args, nargs, &i, &y) < 0)
        return NULL;
    if (i >= 0 || y >= 0) {
        Slot s = located(t, i, y);
        return entry_of(&s);
    }
    PyObject *d = nargs > 1 ? args[1] : Py_None;
    Py_INCREF(d);
    return d;
}

static PyObject *
table_pop(OwnedTable *t, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t i, y;
    if (locate_arg(t, "pop", args, nargs, &i, &y) < 0)
        return NULL;
    if (i < 0 && y < 0) {
        if (nargs > 1) {
            Py_INCREF(args[1]);
            return args[1];
        }
        PyErr_SetObject(PyExc_KeyError, args[0]);
        return NULL;
    }
    Slot s = located(t, i, y);
    PyObject *e = entry_of(&s);
    if (e == NULL)
        return NULL;
    remove_located(t, i, y);
    Py_DECREF(s.ref); /* the entry holds them too */
    Py_DECREF(s.producer);
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
    if (hash_young(t) < 0) /* every entry in a slot */
        return NULL;
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
