using DivCon.Multiprogramming;
using DivCon.Scheduling;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>
/// Both schedulers size themselves by the CPU budget unless told otherwise, and say so when told to exceed it. The
/// budgets here are given in the options (a quota of 1 core on this machine's real affinity mask); the same defaults
/// under a real cgroup quota are checked in a child process by <see cref="CgroupQuotaTests"/>.
/// </summary>
public sealed class BudgetedSchedulerTests
{
    private static CpuBudget OneCoreQuota() => new()
    {
        Cores = 1,
        LimitedBy = CpuBudgetLimit.Quota,
        AllowedProcessors = ThreadAffinity.GetProcessAffinity(),
        Quota = new CpuQuota(100000, 100000, "/sys/fs/cgroup/cpu/test", 1),
    };

    [Fact]
    public void Work_stealing_scheduler_defaults_to_the_budget()
    {
        CpuBudget budget = OneCoreQuota();
        using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Budget = budget });

        Assert.Equal(1, scheduler.WorkerCount);
        Assert.Same(budget, scheduler.Budget);
        Assert.Null(scheduler.BudgetWarning);
        Assert.Null(scheduler.GetStatistics().BudgetWarning);
        Assert.Equal(42, Wait.For(Task.Factory.StartNew(() => 42, CancellationToken.None, TaskCreationOptions.None, scheduler)));
    }

    [Fact]
    public void Work_stealing_scheduler_without_a_budget_detects_this_process_budget()
    {
        using var scheduler = new WorkStealingTaskScheduler();

        Assert.Equal(CpuBudget.Detect().Cores, scheduler.WorkerCount);
        Assert.Equal(scheduler.Budget.Cores, scheduler.WorkerCount);
        Assert.Null(scheduler.BudgetWarning);
    }

    [Fact]
    public void An_explicit_worker_count_above_the_budget_wins_with_a_warning_in_the_statistics()
    {
        using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 3, Budget = OneCoreQuota() });

        Assert.Equal(3, scheduler.WorkerCount);
        Assert.StartsWith("3 workers exceed the CPU budget of 1 (the CPU quota, 1.00 CPU rounded up to 1", scheduler.BudgetWarning, StringComparison.Ordinal);
        Assert.Equal(scheduler.BudgetWarning, scheduler.GetStatistics().BudgetWarning);
        scheduler.ResetStatistics();
        Assert.Equal(scheduler.BudgetWarning, scheduler.GetStatistics().BudgetWarning);
    }

    [Fact]
    public void An_explicit_processor_list_above_the_budget_wins_with_a_warning()
    {
        CpuBudget budget = OneCoreQuota();
        using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            Processors = budget.AllowedProcessors,
            BestEffortPinning = true,
            Budget = budget,
        });

        Assert.Equal(budget.AllowedProcessors.Count, scheduler.WorkerCount);
        Assert.Equal(budget.AllowedProcessors.Count > 1, scheduler.BudgetWarning is not null);
    }

    [Fact]
    public void A_budget_without_cores_is_refused()
    {
        CpuBudget none = OneCoreQuota() with { Cores = 0 };

        Assert.Throws<ArgumentException>(() => new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Budget = none }));
        Assert.Throws<ArgumentException>(() => new MultiProgramScheduler(new MultiProgramSchedulerOptions { Budget = none, BestEffortPinning = true }));
    }

    [Fact]
    public void Multiprogram_scheduler_defaults_to_one_worker_per_core_of_the_budget_on_a_chosen_processor()
    {
        CpuBudget budget = OneCoreQuota();
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions { Budget = budget, BestEffortPinning = true });

        Assert.Equal(1, mps.WorkerCount);
        Assert.Same(budget, mps.Budget);
        Assert.Null(mps.BudgetWarning);
        Assert.Null(mps.GetSnapshot().BudgetWarning);
        if (mps.IsPinned)
        {
            int processor = Assert.Single(mps.PinnedProcessors);
            Assert.Contains(processor, budget.AllowedProcessors);
            Assert.Equal(budget.SelectProcessors(), mps.PinnedProcessors);
        }

        ProgramHandle program = mps.AddProgram("p");
        Assert.Equal(7, Wait.For(Task.Factory.StartNew(() => 7, CancellationToken.None, TaskCreationOptions.None, program.Scheduler)));
    }

    [Fact]
    public void Multiprogram_scheduler_with_an_explicit_processor_list_above_the_budget_warns_in_its_snapshot()
    {
        CpuBudget budget = OneCoreQuota();
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = budget.AllowedProcessors,
            Budget = budget,
            BestEffortPinning = true,
        });

        Assert.Equal(budget.AllowedProcessors.Count, mps.WorkerCount);
        if (budget.AllowedProcessors.Count > 1)
        {
            Assert.StartsWith($"{mps.WorkerCount} workers exceed the CPU budget of 1", mps.BudgetWarning, StringComparison.Ordinal);
            Assert.Equal(mps.BudgetWarning, mps.GetSnapshot().BudgetWarning);
        }
        else
        {
            Assert.Null(mps.BudgetWarning);
        }
    }
}
