using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

// The CPU budget the pool was sized by. Without <see cref="MultiProgramSchedulerOptions.Processors"/> the pool has
// one worker per core of the budget, pinned to <see cref="CpuBudget.SelectProcessors()"/> (under a cgroup CPU quota
// that allows fewer cores than allowed processors, the placement packs them into as few cache groups as possible);
// an explicit processor list wins, with <see cref="BudgetWarning"/> set when it is longer than the budget.
public sealed partial class MultiProgramScheduler
{
    private static int s_lastId;

    /// <summary>A number unique among the <see cref="MultiProgramScheduler"/>s of this process (the telemetry's <see cref="SchedulingTelemetry.SchedulerId"/>).</summary>
    public int Id { get; } = Interlocked.Increment(ref s_lastId);

    /// <summary>The CPU budget the pool was sized by (<see cref="MultiProgramSchedulerOptions.Budget"/>, else detected at creation).</summary>
    public CpuBudget Budget { get; }

    /// <summary>
    /// Set when the pool has more workers than <see cref="Budget"/> allows (an explicit processor list won over it):
    /// the budget and why exceeding it costs. Null otherwise. Also in <see cref="MultiProgramSnapshot.BudgetWarning"/>.
    /// </summary>
    public string? BudgetWarning { get; }

    private static CpuBudget ResolveBudget(MultiProgramSchedulerOptions options)
    {
        CpuBudget budget = options.Budget ?? CpuBudget.Detect();
        budget.Validate(nameof(options));
        return budget;
    }
}
