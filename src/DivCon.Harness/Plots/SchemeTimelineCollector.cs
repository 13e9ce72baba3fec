using System.Collections.Concurrent;

namespace DivCon.Harness.Plots;

/// <summary>
/// Where a MultiProgramScheduler-based scheme leaves its <see cref="SchemeTimeline"/> when its run ends, for the
/// cyclic command to write the allocation plot and Chrome trace beside the results. Thread-safe: schemes may add from
/// any thread; the command reads once after the test.
/// </summary>
public sealed class SchemeTimelineCollector
{
    private readonly ConcurrentQueue<SchemeTimeline> _timelines = new();

    /// <summary>Records one scheme's timeline (a later one for the same scheme, e.g. another repetition, is kept too).</summary>
    public void Add(SchemeTimeline timeline)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        _timelines.Enqueue(timeline);
    }

    /// <summary>The timelines added so far, in order.</summary>
    public IReadOnlyList<SchemeTimeline> Snapshot() => _timelines.ToArray();
}
