# C types for maumau/state.py when Cython compiles it (setup.py); Python ignores this file.
# GameState becomes an extension type: the engine reads and fills its fields directly.
cimport cython


# final: its methods are called directly.  (No no_gc: a learner's rule may keep a state it was
# shown, and a state's memory holds the rules, so a state can sit in a cycle the collector must see.)
@cython.final
cdef class GameState:
    cdef public object _variant, _hands, _stock, _discard, _to_move, _direction, _wish, _pending
    cdef public object _phase, _drawn, _memory, _active, _dealer, _seed, _idle, _winner
    cdef public object _over, _blocked, _events, _legal, _key, _hash
    cdef object __weakref__

    cpdef Py_ssize_t next_seat(self, Py_ssize_t seat)


@cython.locals(n=Py_ssize_t)
cpdef Py_ssize_t next_active(active, Py_ssize_t seat, Py_ssize_t step)


@cython.locals(state=GameState)
cpdef GameState make_state(variant, hands, stock, discard, to_move, direction, wish, pending, phase,
                           drawn, memory, active, dealer, seed, idle, winner, over, blocked,
                           events=*)
