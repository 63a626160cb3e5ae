/*
 * _hot.h: what the C files of the extension module jaxsess._core.runtime._hot
 * share. The module is one extension built from these files; each file is the
 * C twin of one piece of Python code, which is the reference and the fallback
 * (a C function calls it for anything but its common case):
 *
 *   _hot.c            the plan-cache hit of Session.run and make_callable
 *                     (Session._hit, make_callable's runner, _run_entry in
 *                     _graph_session.py): HotRun, HotRunner, configure
 *   _hot_registry.c   OwnershipRegistry._swap_pinned (_resources.py):
 *                     swap_pinned, configure_registry
 *   _hot_wrap.c       the `call` of BaseSession._wrap (_session.py): WrapCall
 *   _hot_owned.c      the registry's table of owned arrays and its counters
 *                     (_resources._OwnedDict): OwnedTable
 *   _hot_common.c     the helpers and globals they share (below)
 *   _hot_module.c     PyInit__hot: the module, with what each file adds to it
 *
 * The symbols shared between files start with hot_; everything else is
 * static to its file. JAXSESS_C_HOT_PATH=0 (read at import, _native.py)
 * turns the whole module off.
 */
#ifndef JAXSESS_HOT_H
#define JAXSESS_HOT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

/* The hot_ symbols are the module's own: hidden (not exported from the shared
 * library, called directly rather than through the PLT). Only PyInit__hot,
 * PyMODINIT_FUNC, is exported. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* -- _hot_common.c --------------------------------------------------------------------- */

extern PyObject *hot_concrete;       /* the registry's set of concrete jax.Array types (configure_registry) */
extern int hot_registry_configured;  /* configure_registry has run: the registry's twins may run */
extern PyObject *hot_nbytes_cache;  /* _resources._nbytes_cache: aval -> bytes (configure_registry, _hot_registry.c) */

/* Interned attribute names more than one file uses. */
extern PyObject *hot_s_acquire, *hot_s_closed, *hot_s_pending, *hot_s_raise_translated;
extern PyObject *hot_s_dead, *hot_s_pressure, *hot_s_safe_point;

/* Interns `text` into `var`, in an init function (returns -1 on failure). */
#define HOT_INTERN(var, text)                                   \
    do {                                                        \
        if (((var) = PyUnicode_InternFromString(text)) == NULL) \
            return -1;                                          \
    } while (0)

int hot_attr_true(PyObject *obj, PyObject *name);
PyObject *hot_as_tuple(PyObject *const *vals, Py_ssize_t n);
PyObject *hot_take_exception(void);
void hot_give_exception(PyObject *exc);
int hot_adopt(PyObject *registry, PyObject *out, PyObject *const *args, Py_ssize_t n, int by_buffer);
int hot_configure_safe_points(PyObject *noop, PyObject *assist, PyObject *sweep, Py_ssize_t reap_at);
int hot_safe_point_idle(PyObject *registry, PyObject *registry_dict, PyObject *pending, PyObject *dead);
int hot_call_safe_point(PyObject *registry);
int hot_lock_nowait(PyObject *reg, PyObject **lock);
int hot_unlock(PyObject *lock, int result);
int hot_add_type(PyObject *module, const char *name, PyTypeObject *type);

/* The object of HotRunner (make_callable, _hot.c) and WrapCall (session.wrap,
 * _hot_wrap.c): the Python callable it stands for (the reference path), the
 * session, its registry, the jitted function, and what the common case needs. */
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
    PyObject *weaklist; /* WrapCall only (the session keeps them in a WeakSet) */
    PyObject *rdict;    /* WrapCall: the registry's instance dict (its attributes, read directly) */
    PyObject *lock;     /* WrapCall: the registry's _lock when it was made, and its methods */
    PyObject *acquire, *release, *locked;
    /* WrapCall: the registry's containers, never rebound after its __init__ */
    PyObject *owned, *dead, *died, *pending, *inflight;
    PyObject *batches;  /* WrapCall: ON_SESSION_CLOSE's _batches (its strong holding), else NULL */
    PyObject *sdict;    /* WrapCall: the session's instance dict */
    Py_ssize_t n;       /* HotRunner: the number of feeds */
    int device;         /* HotRunner: device fetches */
    int by_buffer;
    vectorcallfunc vectorcall;
} Wrapper;

Wrapper *hot_wrapper_new(PyTypeObject *type, vectorcallfunc call, PyObject *slow, PyObject *session,
                         PyObject *registry, PyObject *fn, int by_buffer);
int hot_wrapper_traverse(Wrapper *self, visitproc visit, void *arg);
int hot_wrapper_clear(Wrapper *self);
void hot_wrapper_dealloc(Wrapper *self);

int hot_common_init(void);

/* -- _hot_registry.c ------------------------------------------------------------------- */

/* swap_pinned's common case (state_call's variable swap, as Session._call's
 * registry.swap_pinned): 1 done, 0 not the common case (nothing changed), -1 error. */
int hot_swap_arrays(PyObject *reg, PyObject *const *oi, PyObject *const *ni, Py_ssize_t n);

int hot_registry_init(PyObject *module);

/* -- _hot_owned.c ---------------------------------------------------------------------- */

/* The registry's counters (SessionStats' allocated and freed arrays, live and peak bytes). */
typedef struct {
    long long allocated, freed, live, peak;
} OwnedCounts;

/* An OwnedTable (exactly: the registry makes it), its counters, and its
 * entries keyed by the weak reference's address. None of these runs Python
 * code. insert (of a key no young entry has: a weak reference with a
 * callback): 0, or -1 with MemoryError set (after reserve(n) succeeded, n
 * inserts of new keys cannot fail); pop and contains (young entries
 * included): 1 found, 0 not. */
int hot_owned_check(PyObject *op);
OwnedCounts *hot_owned_counts(PyObject *table);
Py_ssize_t hot_owned_len(PyObject *table);
int hot_owned_reserve(PyObject *table, Py_ssize_t n);
int hot_owned_insert(PyObject *table, PyObject *ref, long long nbytes, PyObject *producer);
int hot_owned_pop(PyObject *table, const void *ref, long long *nbytes);
int hot_owned_contains(PyObject *table, const void *ref);
/* The young generations (_hot_owned.c): entries under weak references
 * without a callback. push lists a new entry (ref, nbytes, producer) in
 * generation 0 without entering it in the hashed slots (a lookup finds it
 * all the same). A prune runs in two steps so that every allocation (which
 * may run Python code) comes first: prepare decides; when a generation-1
 * entry survives it takes the list out and makes the survivors' new weak
 * references (callback `died`); abort puts it back; commit (no Python code)
 * drops the dead entries, counted freed, re-enters generation 1's survivors
 * and keeps generation 0's as generation 1, returning the number freed. */
typedef struct {
    PyObject *ref;      /* the weak reference (a strong reference to it); NULL: a hole */
    PyObject *producer; /* (a strong reference), NULL in a hole */
    long long nbytes;
    int hashed;         /* also entered in the hashed slots */
} YoungEntry;
typedef struct {
    YoungEntry *old;
    PyObject **fresh;
    Py_ssize_t n, mid;
    int fast; /* nothing taken out: commit prunes the list in place */
} Young;
int hot_owned_young_reserve(PyObject *table, Py_ssize_t n);
void hot_owned_young_push(PyObject *table, PyObject *ref, long long nbytes, PyObject *producer);
int hot_owned_young_prepare(PyObject *table, PyObject *died, Young *y);
void hot_owned_young_abort(PyObject *table, Young *y);
Py_ssize_t hot_owned_young_commit(PyObject *table, Young *y);
int hot_owned_init(PyObject *module);

/* -- _hot.c, _hot_wrap.c --------------------------------------------------------------- */

int hot_run_init(PyObject *module);
int hot_wrap_init(PyObject *module);
/* What a WrapCall's call does with its outputs, for `out` (a fresh concrete
 * array or a pytree of them): owned by the WrapCall's registry under its
 * producer. 0, or -1 with an error set. */
int hot_wrap_own(PyObject *wrapcall, PyObject *out);
int hot_wrap_check(PyObject *op);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* JAXSESS_HOT_H */
