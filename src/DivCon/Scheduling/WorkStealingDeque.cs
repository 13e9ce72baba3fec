// Protocol of the work-stealing deque (one per worker slot of a queue set).
//
// Roles
//   owner  - the single worker thread currently serving the slot: LocalPush, LocalPop, LocalFindAndPop, LocalDrainTo.
//            Ownership can pass to another thread only through a happens-before edge outside the deque (a worker
//            leaves a queue set after draining its deque; the next owner of the slot reads the set after that).
//   thief  - any other thread: TrySteal, CanSteal, Count, ToArray.
//
// State: a power-of-two ring _array indexed by Head (thief end, FIFO) and Tail (owner end, LIFO); items live in
// [Head, Tail). Indices only grow; they are masked to index the array. A slot may hold null when the owner removed
// an item from the middle (LocalFindAndPop); both ends skip such holes.
//
// Fast paths without a lock
//   LocalPush  writes the item, then publishes Tail (Volatile.Write). Takes the lock only when fewer than two free
//              slots remain (a thief may be reading the slot at Head) or to grow.
//   LocalPop   decrements Tail with a full fence (Interlocked.Exchange), then reads Head: if the item at the new
//              tail cannot also be claimed by a thief (head <= tail), it is the owner's. Only when the deque is down to
//              its last item does the owner take the lock to arbitrate with a thief (the Dekker pair below).
//   TrySteal   never waits for a busy victim: it only TryEnters the lock, and on failure reports a missed steal so
//              the caller moves on to another victim and retries later.
//
// The Dekker pair (required: an item is never taken twice): the owner writes Tail then reads Head
// (LocalPop); a thief, under the lock, writes Head then reads Tail (TrySteal). Both writes are Interlocked.Exchange
// (full fences), so at least one side sees the other's claim; when both might have claimed the last item the owner
// falls back to the lock, where the thief already is or will be serialised.
//
// Wrap-around: when Tail reaches int.MaxValue the owner, under the lock, masks both indices down to their low bits
// (items keep their array positions; head <= tail still holds since all masked-off bits of tail were ones). An
// internal constructor starts the indices near int.MaxValue so tests exercise it.
//
// Rejected alternatives
//   - A lock on every operation (ParallelExtensionsExtras): thieves would block a busy owner.
//   - Chase-Lev with CAS on Head and no lock: equally fast for the owner, but growth then needs array
//     recycling/epochs in .NET to avoid a thief reading a stale array; the runtime's lock-on-contention design
//     (ThreadPoolWorkQueue.WorkStealingQueue) is proven and simpler to state.
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DivCon.Scheduling;

/// <summary>A work-stealing deque: the owner pushes and pops at the tail (LIFO); thieves steal at the head (FIFO).</summary>
internal sealed class WorkStealingDeque<T>
    where T : class
{
    internal const int DefaultInitialCapacity = 32;

    // Written by the owner (grow) under _lock; read by the owner without the lock and by thieves under _lock.
    private volatile T?[] _array;

    // Written by the owner (grow, wrap) under _lock; read by anyone.
    private volatile int _mask;

    // The two ends, each on its own pair of cache lines, with two lines of padding on either side (PaddedEnds): the
    // owner writes the tail on every push and pop, and the deques of a queue set are allocated one after another,
    // each next to its array, so without padding worker A's tail could share a line with worker B's tail or with
    // the slots B writes.
    private PaddedEnds _ends;

    // Serialises thieves with each other and with the owner's rare paths. Thieves only TryEnter it.
    private SpinLock _lock = new(enableThreadOwnerTracking: false);

    public WorkStealingDeque()
        : this(DefaultInitialCapacity, 0)
    {
    }

    /// <summary>Test hook: a tiny capacity exercises growth; a start index near int.MaxValue exercises wrap-around.</summary>
    internal WorkStealingDeque(int initialCapacity, int startIndex)
    {
        Debug.Assert(initialCapacity >= 2 && (initialCapacity & (initialCapacity - 1)) == 0, "capacity must be a power of two >= 2");
        Debug.Assert(startIndex >= 0);
        _array = new T?[initialCapacity];
        _mask = initialCapacity - 1;
        _ends.Head = startIndex;
        _ends.Tail = startIndex;
    }

    /// <summary>
    /// The array element for index <paramref name="index"/> (any non-negative index: it is masked by the array's own
    /// length, a power of two, so the access is always in bounds). No bounds or array-covariance check: every array
    /// is created here as exactly <c>T?[]</c>, and the mask is derived from the array itself, never from a separately
    /// read field, so a reader holding an older array still indexes within it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ref T? Element(T?[] array, int index)
        => ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(array), index & (array.Length - 1));

    /// <summary>Items currently in the deque (a racy estimate when read by a thief).</summary>
    public int Count => Math.Max(0, _ends.Tail - _ends.Head);

    /// <summary>True when a steal might succeed (racy: the owner may pop the last item first).</summary>
    public bool CanSteal => _ends.Head < _ends.Tail;

    /// <summary>Current array length (for tests of growth).</summary>
    internal int Capacity => _array.Length;

    /// <summary>Owner only: pushes at the tail.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void LocalPush(T item)
    {
        int tail = _ends.Tail;
        if (tail == int.MaxValue)
        {
            tail = LocalPushHandleTailOverflow();
        }

        // Fast path: at least two free slots, so the slot at tail is not the one a thief may be reading at head.
        if (tail < _ends.Head + _mask)
        {
            Volatile.Write(ref Element(_array, tail), item);

            // Publishes the item (release: the element write above is visible before the new tail).
            _ends.Tail = tail + 1;
        }
        else
        {
            LocalPushSlow(item);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void LocalPushSlow(T item)
    {
        bool taken = false;
        try
        {
            _lock.Enter(ref taken);
            int head = _ends.Head;
            int tail = _ends.Tail;
            int count = tail - head;
            if (count >= _mask)
            {
                // Full (or one free slot): double the array, copying items in order to [0, count).
                T?[] old = _array;
                var grown = new T?[old.Length << 1];
                for (int i = 0; i < count; i++)
                {
                    grown[i] = old[(head + i) & _mask];
                }

                _array = grown;
                _ends.Head = 0;
                _ends.Tail = tail = count;
                _mask = (_mask << 1) | 1;
            }

            Volatile.Write(ref _array[tail & _mask], item);
            _ends.Tail = tail + 1;
        }
        finally
        {
            if (taken)
            {
                _lock.Exit(useMemoryBarrier: false);
            }
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private int LocalPushHandleTailOverflow()
    {
        bool taken = false;
        try
        {
            _lock.Enter(ref taken);
            int tail = _ends.Tail;
            if (tail == int.MaxValue)
            {
                // Keep only the bits that index the array: items stay where they are. tail had all bits set, so the
                // masked tail is the largest value its low bits can take and head <= tail still holds.
                _ends.Head &= _mask;
                _ends.Tail = tail = tail & _mask;
                Debug.Assert(_ends.Head <= _ends.Tail);
            }

            return tail;
        }
        finally
        {
            if (taken)
            {
                // Full barrier: thieves that read the indices after this see the masked pair, not a mix.
                _lock.Exit(useMemoryBarrier: true);
            }
        }
    }

    /// <summary>Owner only: pops the most recently pushed item, or null when empty.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T? LocalPop() => _ends.Head < _ends.Tail ? LocalPopCore() : null;

    private T? LocalPopCore()
    {
        while (true)
        {
            int tail = _ends.Tail;
            if (_ends.Head >= tail)
            {
                return null;
            }

            tail--;

            // Full fence (required: an item is never taken twice): pairs with the thief's Interlocked.Exchange on
            // Head in TrySteal; either we see its incremented head or it sees our decremented tail.
            Interlocked.Exchange(ref _ends.Tail, tail);

            if (_ends.Head <= tail)
            {
                ref T? element = ref Element(_array, tail);
                T? item = Volatile.Read(ref element);
                if (item is null)
                {
                    continue; // a hole left by LocalFindAndPop
                }

                element = null;
                return item;
            }

            T? result = LocalPopContended(tail, out bool retry);
            if (!retry)
            {
                return result;
            }
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T? LocalPopContended(int tail, out bool retry)
    {
        // At most one item was left and a thief may be taking it: decide under the lock.
        bool taken = false;
        try
        {
            _lock.Enter(ref taken);
            if (_ends.Head <= tail)
            {
                int index = tail & _mask;
                T? item = Volatile.Read(ref _array[index]);
                if (item is null)
                {
                    retry = true;
                    return null;
                }

                _array[index] = null;
                retry = false;
                return item;
            }

            // The thief won: restore the tail we took.
            _ends.Tail = tail + 1;
            retry = false;
            return null;
        }
        finally
        {
            if (taken)
            {
                _lock.Exit(useMemoryBarrier: false);
            }
        }
    }

    /// <summary>
    /// Owner only: removes <paramref name="item"/> if it is still in the deque (used before inlining a task that was
    /// queued). Returns false when it is not there (already popped or stolen).
    /// </summary>
    public bool LocalFindAndPop(T item)
    {
        // Most often the item is the last one pushed.
        if (_ends.Tail > _ends.Head && ReferenceEquals(Volatile.Read(ref _array[(_ends.Tail - 1) & _mask]), item))
        {
            // Only the owner changes Tail, so LocalPop takes exactly that slot: it returns the item, or null when a
            // thief stole it in the meantime.
            T? popped = LocalPop();
            Debug.Assert(popped is null || ReferenceEquals(popped, item));
            return popped is not null;
        }

        // Search under the lock and leave a hole (both ends skip nulls).
        bool taken = false;
        try
        {
            _lock.Enter(ref taken);
            for (int i = _ends.Tail - 1; i >= _ends.Head; i--)
            {
                int index = i & _mask;
                if (ReferenceEquals(_array[index], item))
                {
                    _array[index] = null;
                    return true;
                }
            }

            return false;
        }
        finally
        {
            if (taken)
            {
                _lock.Exit(useMemoryBarrier: false);
            }
        }
    }

    /// <summary>
    /// Any thread other than the owner: takes the oldest item. Never waits: when the lock is busy it sets
    /// <paramref name="missed"/> and returns null so the caller can try another victim and come back.
    /// </summary>
    public T? TrySteal(ref bool missed)
    {
        while (_ends.Head < _ends.Tail)
        {
            bool taken = false;
            try
            {
                _lock.TryEnter(ref taken);
                if (!taken)
                {
                    missed = true;
                    return null;
                }

                int head = _ends.Head;

                // Full fence (required: an item is never taken twice): pairs with the owner's Interlocked.Exchange on
                // Tail in LocalPop; either the owner sees our claim or we see its decremented tail.
                Interlocked.Exchange(ref _ends.Head, head + 1);
                if (head < _ends.Tail)
                {
                        ref T? element = ref Element(_array, head);
                    T? item = Volatile.Read(ref element);
                    if (item is null)
                    {
                        continue; // a hole: the head already moved past it, try the next item
                    }

                    element = null;
                    return item;
                }

                // The owner popped the last item: restore the head.
                _ends.Head = head;
                return null;
            }
            finally
            {
                if (taken)
                {
                    _lock.Exit(useMemoryBarrier: false);
                }
            }
        }

        return null;
    }

    /// <summary>Owner only: moves every item, oldest first, to <paramref name="sink"/>; returns how many.</summary>
    public int LocalDrainTo(Action<T> sink)
    {
        // Popping from the thief end keeps the original order (oldest, i.e. largest subproblems, first).
        int moved = 0;
        bool missed;
        do
        {
            missed = false;
            T? item;
            while ((item = TrySteal(ref missed)) is not null)
            {
                sink(item);
                moved++;
            }
        }
        while (missed); // the lock was busy with a thief: the items are still there (or were stolen); look again.

        return moved;
    }

    /// <summary>A racy copy of the items for the debugger (<c>TaskScheduler.GetScheduledTasks</c>).</summary>
    public List<T> ToList()
    {
        var list = new List<T>();
        T?[] array = _array;
        int mask = array.Length - 1;
        int head = _ends.Head, tail = _ends.Tail;
        for (int i = head; i < tail && i - head < array.Length; i++)
        {
            T? item = Volatile.Read(ref array[i & mask]);
            if (item is not null)
            {
                list.Add(item);
            }
        }

        return list;
    }
}

/// <summary>The two ends of a <see cref="WorkStealingDeque{T}"/>, each alone on its cache lines.</summary>
[StructLayout(LayoutKind.Explicit, Size = 3 * WorkerCounters.PaddingSize)]
internal struct PaddedEnds
{
    // Thief end. Written by thieves under the deque's lock, and by the owner under it (grow, wrap, restore). Read by
    // anyone.
    [FieldOffset(WorkerCounters.PaddingSize)]
    public volatile int Head;

    // Owner end. Written by the owner only; read by anyone.
    [FieldOffset(2 * WorkerCounters.PaddingSize)]
    public volatile int Tail;
}
