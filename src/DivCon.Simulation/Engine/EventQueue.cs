namespace DivCon.Simulation.Engine;

/// <summary>What an event does when it fires.</summary>
internal enum EventKind
{
    /// <summary>A worker's current step ends (target = worker id; stale if the worker's stamp moved on).</summary>
    StepDone,

    /// <summary>A blocked worker becomes runnable (target = worker id).</summary>
    Wake,

    /// <summary>A core's time slice ends (target = core id; stale if the core's slice stamp moved on).</summary>
    SliceEnd,

    /// <summary>The MultiProgramScheduler's repartitioning tick.</summary>
    Tick,

    /// <summary>A demand-driven decision (MultiProgramSchedulerOptions.RepartitionOnDemand).</summary>
    Demand,
}

/// <summary>One scheduled event. Ordered by (Time, Seq): equal times fire in the order they were scheduled.</summary>
internal readonly record struct SimEvent(long Time, long Seq, EventKind Kind, int Target, int Stamp);

/// <summary>
/// The pending events, keyed by (time, insertion sequence). The key is unique, so the order events fire in is a total
/// order fixed here, not by the heap's tie-breaking: that order decides which worker wins a steal, so it must never
/// change with a runtime version.
/// </summary>
internal sealed class EventQueue
{
    private readonly PriorityQueue<SimEvent, (long Time, long Seq)> _heap = new(256);
    private long _nextSeq;

    public int Count => _heap.Count;

    public void Schedule(long time, EventKind kind, int target, int stamp = 0)
    {
        var e = new SimEvent(time, _nextSeq++, kind, target, stamp);
        _heap.Enqueue(e, (e.Time, e.Seq));
    }

    public SimEvent Peek() => _heap.Peek();

    public SimEvent Pop() => _heap.Dequeue();
}
