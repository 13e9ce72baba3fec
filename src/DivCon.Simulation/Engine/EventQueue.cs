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
/// A binary min-heap of events keyed by (time, insertion sequence). Owned here rather than
/// <see cref="PriorityQueue{TElement, TPriority}"/> so that the order of equal-time events is part of this code, not
/// of a runtime version: that order decides which worker wins a steal, so it must never change under us.
/// </summary>
internal sealed class EventQueue
{
    private SimEvent[] _heap = new SimEvent[256];
    private long _nextSeq;

    public int Count { get; private set; }

    public void Schedule(long time, EventKind kind, int target, int stamp = 0)
    {
        if (Count == _heap.Length)
        {
            Array.Resize(ref _heap, _heap.Length * 2);
        }

        var e = new SimEvent(time, _nextSeq++, kind, target, stamp);
        int i = Count++;
        while (i > 0)
        {
            int parent = (i - 1) >> 1;
            if (!Less(e, _heap[parent]))
            {
                break;
            }

            _heap[i] = _heap[parent];
            i = parent;
        }

        _heap[i] = e;
    }

    public SimEvent Peek() => _heap[0];

    public SimEvent Pop()
    {
        SimEvent top = _heap[0];
        SimEvent last = _heap[--Count];
        int i = 0;
        while (true)
        {
            int child = (2 * i) + 1;
            if (child >= Count)
            {
                break;
            }

            if (child + 1 < Count && Less(_heap[child + 1], _heap[child]))
            {
                child++;
            }

            if (!Less(_heap[child], last))
            {
                break;
            }

            _heap[i] = _heap[child];
            i = child;
        }

        if (Count > 0)
        {
            _heap[i] = last;
        }

        return top;
    }

    private static bool Less(in SimEvent a, in SimEvent b) => a.Time < b.Time || (a.Time == b.Time && a.Seq < b.Seq);
}
