// Protocol of the work-stealing deque (one per worker slot of a queue set).
//
// Roles
//   owner  - the single worker thread currently serving the slot: LocalPush, LocalPop, LocalFindAndPop, LocalDrainTo.
//            Ownership can pass to another thread only through a happens-before edge outside the deque (a worker
//            leaves a queue set after draining its deque; the next owner of the slot reads the set after that).
//   thief  - any other thread: TrySteal, CanSteal, Count, ToArray.
//
// State: a power-of-two ring Items indexed by Head (thief end, FIFO) and Tail (owner end, LIFO); items live in
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

    // The array, the mask and the two ends live in one padded struct (DequeFields): the owner reads the array and the
    // mask and writes the tail on every push and pop, and the deques of a queue set are allocated one after another,
    // each next to its array, so without padding worker A's deque fields could share a cache line with worker B's,
    // or with the slots B writes at the end of its array.
    private DequeFields _fields;

    // Written by the owner (grow) under _lock; read by the owner without the lock and by thieves under _lock. Always a
    // T?[] (stored as object because a generic struct cannot have an explicit layout).
    private T?[] Items
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Unsafe.As<T?[]>(_fields.Array)!;
        set => _fields.Array = value;
    }

    // Written by the owner (grow, wrap) under _lock; read by anyone.
    private int Mask
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _fields.Mask;
        set => _fields.Mask = value;
    }

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
        Items = new T?[initialCapacity];
        Mask = initialCapacity - 1;
        _fields.Head = startIndex;
        _fields.Tail = startIndex;
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
    public int Count => Math.Max(0, _fields.Tail - _fields.Head);

    /// <summary>True when a steal might succeed (racy: the owner may pop the last item first).</summary>
    public bool CanSteal => _fields.Head < _fields.Tail;

    /// <summary>Current array length (for tests of growth).</summary>
    internal int Capacity => Items.Length;

    /// <summary>Owner only: pushes at the tail.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void LocalPush(T item)
    {
        int tail = _fields.Tail;
        if (tail == int.MaxValue)
        {
            tail = LocalPushHandleTailOverflow();
        }

        // Fast path: at least two free slots, so the slot at tail is not the one a thief may be reading at head.
        if (tail < _fields.Head + Mask)
        {
            Volatile.Write(ref Element(Items, tail), item);

            // Publishes the item (release: the element write above is visible before the new tail).
            _fields.Tail = tail + 1;
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
            int head = _fields.Head;
            int tail = _fields.Tail;
            int count = tail - head;
            if (count >= Mask)
            {
                // Full (or one free slot): double the array, copying items in order to [0, count).
                T?[] old = Items;
                var grown = new T?[old.Length << 1];
                for (int i = 0; i < count; i++)
                {
                    grown[i] = old[(head + i) & Mask];
                }

                Items = grown;
                _fields.Head = 0;
                _fields.Tail = tail = count;
                Mask = (Mask << 1) | 1;
            }

            Volatile.Write(ref Items[tail & Mask], item);
            _fields.Tail = tail + 1;
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
            int tail = _fields.Tail;
            if (tail == int.MaxValue)
            {
                // Keep only the bits that index the array: items stay where they are. tail had all bits set, so the
                // masked tail is the largest value its low bits can take and head <= tail still holds.
                _fields.Head &= Mask;
                _fields.Tail = tail = tail & Mask;
                Debug.Assert(_fields.Head <= _fields.Tail);
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
    public T? LocalPop() => _fields.Head < _fields.Tail ? LocalPopCore() : null;

    private T? LocalPopCore()
    {
        while (true)
        {
            int tail = _fields.Tail;
            if (_fields.Head >= tail)
            {
                return null;
            }

            tail--;

            // Full fence (required: an item is never taken twice): pairs with the thief's Interlocked.Exchange on
            // Head in TrySteal; either we see its incremented head or it sees our decremented tail.
            Interlocked.Exchange(ref _fields.Tail, tail);

            if (_fields.Head <= tail)
            {
                ref T? element = ref Element(Items, tail);
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
            if (_fields.Head <= tail)
            {
                int index = tail & Mask;
                T? item = Volatile.Read(ref Items[index]);
                if (item is null)
                {
                    retry = true;
                    return null;
                }

                Items[index] = null;
                retry = false;
                return item;
            }

            // The thief won: restore the tail we took.
            _fields.Tail = tail + 1;
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
        if (_fields.Tail > _fields.Head && ReferenceEquals(Volatile.Read(ref Items[(_fields.Tail - 1) & Mask]), item))
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
            for (int i = _fields.Tail - 1; i >= _fields.Head; i--)
            {
                int index = i & Mask;
                if (ReferenceEquals(Items[index], item))
                {
                    Items[index] = null;
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
        while (_fields.Head < _fields.Tail)
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

                int head = _fields.Head;

                // Full fence (required: an item is never taken twice): pairs with the owner's Interlocked.Exchange on
                // Tail in LocalPop; either the owner sees our claim or we see its decremented tail.
                Interlocked.Exchange(ref _fields.Head, head + 1);
                if (head < _fields.Tail)
                {
                        ref T? element = ref Element(Items, head);
                    T? item = Volatile.Read(ref element);
                    if (item is null)
                    {
                        continue; // a hole: the head already moved past it, try the next item
                    }

                    element = null;
                    return item;
                }

                // The owner popped the last item: restore the head.
                _fields.Head = head;
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
        T?[] array = Items;
        int mask = array.Length - 1;
        int head = _fields.Head, tail = _fields.Tail;
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

/// <summary>The hot fields of a <see cref="WorkStealingDeque{T}"/>, each group alone on its cache lines.</summary>
[StructLayout(LayoutKind.Explicit, Size = (4 * WorkerCounters.PaddingSize) + 16)]
internal struct DequeFields
{
    // The deque's T?[] (volatile: grown by the owner under the lock, read without it by the owner).
    [FieldOffset(WorkerCounters.PaddingSize)]
    public volatile object? Array;

    // Array length - 1 (volatile: written with the array under the lock).
    [FieldOffset(WorkerCounters.PaddingSize + 8)]
    public volatile int Mask;

    // Thief end. Written by thieves under the deque's lock, and by the owner under it (grow, wrap, restore). Read by
    // anyone.
    [FieldOffset(2 * WorkerCounters.PaddingSize)]
    public volatile int Head;

    // Owner end. Written by the owner only; read by anyone.
    [FieldOffset(3 * WorkerCounters.PaddingSize)]
    public volatile int Tail;
}
