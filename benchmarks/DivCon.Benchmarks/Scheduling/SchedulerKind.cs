using DivCon.Scheduling;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>The two schedulers compared in one run: the .NET thread pool's and DivCon's with two workers.</summary>
internal static class SchedulerKind
{
    public const int Workers = 2;

    public static WorkStealingTaskScheduler CreateWorkStealing() => new(Workers);
}
