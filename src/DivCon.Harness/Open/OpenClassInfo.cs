namespace DivCon.Harness.Open;

/// <summary>A job class as measured before the runs: its time alone (the denominator of every slowdown) and its scalability.</summary>
/// <param name="Name">The class.</param>
/// <param name="Role"><see cref="OpenMix.Latency"/> or <see cref="OpenMix.Throughput"/>.</param>
/// <param name="Description">What a job runs.</param>
/// <param name="Weight">Its weight in the mix.</param>
/// <param name="AloneMs">Median time of one job alone on every processor (a work-stealing scheduler with a pinned worker per processor), ms.</param>
/// <param name="OneWorkerMs">Median time of one job alone on one worker, ms.</param>
/// <param name="Scalability">OneWorkerMs / AloneMs: the scalability the partitioned schemes' policies are given for its jobs.</param>
/// <param name="AloneRunsMs">Every timed run alone on every processor, ms.</param>
/// <param name="OneWorkerRunsMs">Every timed run on one worker, ms.</param>
public sealed record OpenClassInfo(
    string Name, string Role, string Description, double Weight, double AloneMs, double OneWorkerMs, double Scalability,
    IReadOnlyList<double> AloneRunsMs, IReadOnlyList<double> OneWorkerRunsMs);
