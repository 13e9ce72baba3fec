namespace DivCon.Harness.Open;

/// <summary>One scheme's run of one repetition's arrival sequence.</summary>
/// <param name="Scheme">The scheme.</param>
/// <param name="ElapsedSeconds">From the run's start (time 0 of the arrivals) to the last job's completion.</param>
/// <param name="CpuSeconds">The process's CPU time over that span (every thread: workers, spinning included).</param>
/// <param name="Cores">Processors the scheme used.</param>
/// <param name="MaxLagMs">The largest delay between a job's arrival time and its submission (the driver's and the scheme's admission cost).</param>
/// <param name="TurnaroundMs">Per job, in arrival order: from its arrival time to the completion of its task, ms.</param>
public sealed record OpenRun(string Scheme, double ElapsedSeconds, double CpuSeconds, int Cores, double MaxLagMs, IReadOnlyList<double> TurnaroundMs);
