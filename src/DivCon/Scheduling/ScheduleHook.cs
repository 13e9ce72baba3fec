// Named yield points for the deterministic schedule explorer (tests/DivCon.Tests/Exploration). Every call site is
// [Conditional("DEBUG")]: in a Release build the calls and their arguments are not compiled at all, so the protocol
// pays nothing. In a Debug build each point costs one read of a static field that is null unless a test installed an
// explorer; with one installed, only threads the explorer controls stop at the points, every other thread passes.
//
// Where the points are: at each shared access of the wake / park / move / lend / shutdown protocol (WorkQueueSet.cs,
// Worker.cs, WorkerPool.cs, MultiProgramScheduler.cs), named "<operation>.<step>". A controlled thread that would
// block for real (Park, the pool's start and join) first tells the explorer what it waits for (BlockUntil), so the
// explorer runs it only when that holds; a polling loop (a removal waiting for its program's tasks, a worker spinning
// during shutdown) says so (Spin), so the explorer may skip the real sleep and treat the poll as a yield. A wait with a
// timeout on an event (the repartitioner's tick) says so too (TimedWait): the timeout firing becomes the explorer's
// choice, so that what happens after a tick (going dormant, MultiProgramScheduler.RepartitionLoop) is explored.
using System.Diagnostics;

namespace DivCon.Scheduling;

/// <summary>What a schedule explorer implements (tests only).</summary>
internal interface IScheduleExplorer
{
    /// <summary>A controlled thread reached the yield point <paramref name="point"/>.</summary>
    void Yield(string point);

    /// <summary>A controlled thread is about to block until <paramref name="ready"/> holds; returns once it does.</summary>
    void BlockUntil(Func<bool> ready, string point);

    /// <summary>A controlled thread polls; true when the explorer took the poll as a yield (skip the real pause).</summary>
    bool Spin(string point);

    /// <summary>
    /// A controlled thread is about to wait on an event: with <paramref name="canTimeOut"/>, its timeout may fire at any
    /// step (the thread stays runnable); without, it blocks until <paramref name="isSet"/> holds. True when the explorer
    /// took the wait: the caller then only takes the event's state (a wait of zero), which is "timed out" when unset.
    /// </summary>
    bool TimedWait(Func<bool> isSet, bool canTimeOut, string point);

    /// <summary>A controlled thread is about to start <paramref name="thread"/>, which the explorer then controls too.</summary>
    void Starting(Thread thread);

    /// <summary>A controlled thread ends: it does nothing shared after this.</summary>
    void Exiting();

    /// <summary>A value in [0, <paramref name="n"/>) replacing one taken from the thread's id (replayable choices).</summary>
    int Choose(int n);
}

/// <summary>Debug-only entry points of the schedule explorer (see the file header).</summary>
internal static class ScheduleHook
{
    /// <summary>The installed explorer; null (the default) makes every point a no-op.</summary>
    internal static volatile IScheduleExplorer? Explorer;

    [Conditional("DEBUG")]
    public static void Yield(string point) => Explorer?.Yield(point);

    [Conditional("DEBUG")]
    public static void BlockUntil(Func<bool> ready, string point) => Explorer?.BlockUntil(ready, point);

    /// <summary>Sets <paramref name="handled"/> when the explorer took the poll as a yield; untouched otherwise.</summary>
    [Conditional("DEBUG")]
    public static void Spin(string point, ref bool handled)
    {
        if (Explorer is { } explorer && explorer.Spin(point))
        {
            handled = true;
        }
    }

    /// <summary>
    /// Before a wait on <paramref name="signal"/> (with a timeout when <paramref name="canTimeOut"/>): sets
    /// <paramref name="handled"/> when the explorer took the wait, and the caller then waits for zero time instead.
    /// Required: <paramref name="signal"/> has one waiter, the calling thread (the explorer peeks at its state by taking
    /// and setting it again, while that thread is stopped).
    /// </summary>
    [Conditional("DEBUG")]
    public static void TimedWait(AutoResetEvent signal, bool canTimeOut, string point, ref bool handled)
    {
        if (Explorer is { } explorer && explorer.TimedWait(() => IsSet(signal), canTimeOut, point))
        {
            handled = true;
        }
    }

    // Whether an auto-reset event with one waiter (stopped meanwhile) is set, leaving it as it was.
    private static bool IsSet(AutoResetEvent signal)
    {
        if (!signal.WaitOne(0))
        {
            return false;
        }

        signal.Set();
        return true;
    }

    [Conditional("DEBUG")]
    public static void Starting(Thread thread) => Explorer?.Starting(thread);

    [Conditional("DEBUG")]
    public static void Exiting() => Explorer?.Exiting();

    /// <summary>With an explorer, replaces <paramref name="value"/> (in [0, n)) by the explorer's seeded choice.</summary>
    [Conditional("DEBUG")]
    public static void Choose(int n, ref int value)
    {
        if (Explorer is { } explorer)
        {
            value = explorer.Choose(n);
        }
    }
}
