using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DivCon.Scheduling;

/// <summary>
/// Instrumentation of one worker slot of a queue set, padded so two slots never share a cache line.
/// </summary>
/// <remarks>
/// Writers: only the worker thread currently serving the slot (one at a time; a move hands the slot over through
/// the queue set's Enter/Leave, which the same thread performs). Readers: any thread, through <see cref="ReadTimes"/>.
/// <para>
/// Time accounting tiles the worker's time while it serves the queue set into intervals, each either busy (running
/// tasks, including the pops between consecutive local tasks) or idle (looking for work, stealing, parked). A
/// transition closes the open interval and opens the next one with the same timestamp, so busy + idle equals the
/// time served exactly. Consecutive tasks from the worker's own deque cause no transition and no timestamp: the hot
/// path only increments <see cref="TasksExecuted"/>.
/// </para>
/// <para>
/// Readers need the open interval too (a parked worker's idle time grows without a write). The interval fields are
/// published under a sequence lock: the writer makes <see cref="_version"/> odd, writes the fields, makes it even,
/// all with Volatile.Write (release: each store is ordered after the previous ones); the reader retries while the
/// version is odd or changed. Steals and tasks are single counters read without it.
/// </para>
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = (2 * PaddingSize) + 96)]
internal struct WorkerCounters
{
    /// <summary>Cache-line padding on each side of the fields (two lines: adjacent-line prefetch pairs lines).</summary>
    public const int PaddingSize = 128;

    /// <summary>The open interval is not counted (the slot is not being served).</summary>
    public const int StateNotServing = 0;

    /// <summary>The open interval is idle time.</summary>
    public const int StateIdle = 1;

    /// <summary>The open interval is busy time.</summary>
    public const int StateBusy = 2;

    [FieldOffset(PaddingSize)]
    public long TasksExecuted;

    [FieldOffset(PaddingSize + 8)]
    public long Steals;

    [FieldOffset(PaddingSize + 16)]
    public long StealTicks;

    // Tasks this slot's worker pushed to the set's queues (monotone). Available tasks = external enqueues +
    // Σ(Pushed - Taken); outstanding tasks = external enqueues + ΣPushed - ΣFinished.
    [FieldOffset(PaddingSize + 24)]
    public long Pushed;

    // Tasks this slot's worker took from the set's queues (own deque, global queue, steals; monotone).
    [FieldOffset(PaddingSize + 64)]
    public long Taken;

    // Taken tasks whose execution (or discarding, when the task had already run or was canceled) has returned
    // (monotone). Written with Volatile.Write after the task's own pushes, so a reader that sees it sees them.
    [FieldOffset(PaddingSize + 72)]
    public long Finished;

    // Successful steals from a victim in the thief's own stealing group / in another group (owner only; their sum
    // is Steals).
    [FieldOffset(PaddingSize + 80)]
    public long LocalSteals;

    [FieldOffset(PaddingSize + 88)]
    public long RemoteSteals;

    [FieldOffset(PaddingSize + 32)]
    private long _busyTicks;

    [FieldOffset(PaddingSize + 40)]
    private long _idleTicks;

    [FieldOffset(PaddingSize + 48)]
    private long _intervalStart;

    [FieldOffset(PaddingSize + 56)]
    private int _state;

    [FieldOffset(PaddingSize + 60)]
    private int _version;

    /// <summary>
    /// Owner only: adds one to a counter other threads read. A plain increment on a 64-bit process (an aligned 8-byte
    /// store is atomic there, and <c>IntPtr.Size</c> is a JIT-time constant, so the branch is compiled away); a
    /// Volatile.Write on a 32-bit one, where a plain 8-byte store is two 4-byte stores and a reader (whose
    /// Volatile.Read of a long is atomic) could see half of it (issue 14 defect 6).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Bump(ref long counter) => Add(ref counter, 1);

    /// <summary>Owner only: adds <paramref name="delta"/> to a counter other threads read (see <see cref="Bump"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Add(ref long counter, long delta)
    {
        if (IntPtr.Size == 8)
        {
            counter += delta;
        }
        else
        {
            Volatile.Write(ref counter, counter + delta);
        }
    }

    /// <summary>Owner only: closes the open interval at <paramref name="now"/> and opens one in <paramref name="state"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Transition(int state, long now)
    {
        int version = _version;
        Volatile.Write(ref _version, version + 1);
        long elapsed = now - _intervalStart;
        if (_state == StateBusy)
        {
            Volatile.Write(ref _busyTicks, _busyTicks + elapsed);
        }
        else if (_state == StateIdle)
        {
            Volatile.Write(ref _idleTicks, _idleTicks + elapsed);
        }

        Volatile.Write(ref _intervalStart, now);
        Volatile.Write(ref _state, state);
        Volatile.Write(ref _version, version + 2);
    }

    /// <summary>Any thread: busy and idle ticks including the open interval up to <paramref name="now"/>.</summary>
    public readonly (long BusyTicks, long IdleTicks) ReadTimes(long now)
    {
        var spinner = default(SpinWait);
        while (true)
        {
            int before = Volatile.Read(in _version);
            if ((before & 1) == 0)
            {
                long busy = Volatile.Read(in _busyTicks);
                long idle = Volatile.Read(in _idleTicks);
                long start = Volatile.Read(in _intervalStart);
                int state = Volatile.Read(in _state);
                if (Volatile.Read(in _version) == before)
                {
                    // now may be slightly before start when the worker's clock read raced ours: clamp.
                    long open = Math.Max(0, now - start);
                    return state switch
                    {
                        StateBusy => (busy + open, idle),
                        StateIdle => (busy, idle + open),
                        _ => (busy, idle),
                    };
                }
            }

            spinner.SpinOnce(sleep1Threshold: -1);
        }
    }
}

/// <summary>A point-in-time copy of one slot's counters, in ticks (for subtraction of a reset baseline).</summary>
internal readonly record struct WorkerCounterValues(
    long TasksExecuted, long Steals, long StealTicks, long BusyTicks, long IdleTicks, long LocalSteals, long RemoteSteals)
{
    public static WorkerCounterValues Read(ref WorkerCounters counters, long now)
    {
        (long busy, long idle) = counters.ReadTimes(now);
        return new WorkerCounterValues(
            Volatile.Read(ref counters.TasksExecuted),
            Volatile.Read(ref counters.Steals),
            Volatile.Read(ref counters.StealTicks),
            busy,
            idle,
            Volatile.Read(ref counters.LocalSteals),
            Volatile.Read(ref counters.RemoteSteals));
    }

    public static WorkerCounterValues operator -(WorkerCounterValues a, WorkerCounterValues b) => new(
        a.TasksExecuted - b.TasksExecuted,
        a.Steals - b.Steals,
        a.StealTicks - b.StealTicks,
        a.BusyTicks - b.BusyTicks,
        a.IdleTicks - b.IdleTicks,
        a.LocalSteals - b.LocalSteals,
        a.RemoteSteals - b.RemoteSteals);

    public static WorkerCounterValues operator +(WorkerCounterValues a, WorkerCounterValues b) => new(
        a.TasksExecuted + b.TasksExecuted,
        a.Steals + b.Steals,
        a.StealTicks + b.StealTicks,
        a.BusyTicks + b.BusyTicks,
        a.IdleTicks + b.IdleTicks,
        a.LocalSteals + b.LocalSteals,
        a.RemoteSteals + b.RemoteSteals);

    public static long Now() => Stopwatch.GetTimestamp();
}
