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

/// <summary>One scheduled event; events fire in (Time, scheduling order).</summary>
internal readonly record struct SimEvent(long Time, EventKind Kind, int Target, int Stamp);
