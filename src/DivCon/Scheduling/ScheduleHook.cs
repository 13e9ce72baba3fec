// Named yield points for the deterministic schedule explorer (tests/DivCon.Tests/Exploration). Every call site is
// [Conditional("DEBUG")]: in a Release build the calls and their arguments are not compiled at all, so the protocol
// pays nothing. In a Debug build each point costs one read of a static field that is null unless a test installed an
// explorer; with one installed, only threads the explorer controls stop at the points, every other thread passes.
//
// Where the points are: at each shared access of the wake / park / move / lend / shutdown protocol (WorkQueueSet.cs,
// Worker.cs, WorkerPool.cs, MultiProgramScheduler.cs), named "<operation>.<step>". A controlled thread that would
// block for real (Park, the pool's start and join) first tells the explorer what it waits for (BlockUntil), so the
// explorer runs it only when that holds; a polling loop (a removal waiting for its program's tasks, a worker spinning
// during shutdown) says so (Spin), so the explorer may skip the real sleep and treat the poll as a yield.
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
