namespace DivCon.Harness.Cyclic;

/// <summary>A progress report from a running multiprogram phase, raised on the harness thread after each run ends.</summary>
/// <param name="ElapsedSeconds">Seconds since the phase began.</param>
/// <param name="LimitSeconds">The phase's time limit.</param>
/// <param name="Programs">Program names, by index.</param>
/// <param name="RecordedRuns">Per program: recorded runs so far.</param>
public sealed record PhaseProgress(double ElapsedSeconds, double LimitSeconds, IReadOnlyList<string> Programs, IReadOnlyList<int> RecordedRuns);
