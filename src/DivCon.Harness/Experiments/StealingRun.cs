namespace DivCon.Harness.Experiments;

/// <summary>One run of a stealing comparison: the program, the scope, its time and what the scheduler counted.</summary>
public sealed record StealingRun(
    string Program, string Scope, int Seed, double Seconds, long Steals, long LocalSteals, long RemoteSteals,
    double SchedulingOverheadSeconds, double IdleSeconds, double BusySeconds);
