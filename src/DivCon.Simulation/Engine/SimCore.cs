namespace DivCon.Simulation.Engine;

/// <summary>A virtual core: the worker on it, its pinned run queue, and its time-slice stamp.</summary>
internal sealed class SimCore
{
    public required int Id { get; init; }

    public SimWorker? Current { get; set; }

    public SimWorker? LastWorker { get; set; }

    /// <summary>Runnable workers pinned here, waiting for this core (round-robin).</summary>
    public Queue<SimWorker> RunQueue { get; } = new();

    public int SliceStamp { get; set; }

    /// <summary>When it last became idle (valid while <see cref="Current"/> is null).</summary>
    public long IdleSince { get; set; }
}
