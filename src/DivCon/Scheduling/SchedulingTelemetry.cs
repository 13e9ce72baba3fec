using System.Diagnostics.Metrics;

namespace DivCon.Scheduling;

/// <summary>
/// The names DivCon's schedulers publish their metrics under (System.Diagnostics.Metrics). Every
/// <see cref="WorkStealingTaskScheduler"/> and <see cref="Multiprogramming.MultiProgramScheduler"/> creates its own
/// <see cref="Meter"/> named <see cref="MeterName"/>, disposed with it; each measurement carries
/// <see cref="SchedulerType"/> and <see cref="SchedulerId"/>, so several schedulers in one process stay apart.
/// Names and units follow OpenTelemetry's semantic conventions for metrics: lowercase dotted namespaces, UCUM units
/// (<c>s</c>, <c>{task}</c>), no unit in the name, <c>.count</c> for an UpDownCounter of things, plural names for
/// counters of things, <c>.time</c> split by a state attribute, <c>.limit</c> for a known total.
/// </summary>
/// <remarks>
/// Observable instruments are read only when a listener collects (OpenTelemetry's reader, <c>dotnet-counters</c>,
/// <c>dotnet-trace</c> with the <c>System.Diagnostics.Metrics</c> provider, a <see cref="MeterListener"/>), so they cost
/// nothing otherwise. The table in docs/telemetry.md lists every instrument with its type and attributes.
/// </remarks>
public static class SchedulingTelemetry
{
    /// <summary>The name of every DivCon scheduler's meter.</summary>
    public const string MeterName = "DivCon.Scheduling";

    /// <summary>UpDownCounter, <c>{worker}</c>: the scheduler's worker threads.</summary>
    public const string WorkerCount = "divcon.scheduler.worker.count";

    /// <summary>UpDownCounter, <c>{cpu}</c>: the CPU budget the scheduler was sized by (<see cref="CpuBudget.Cores"/>).</summary>
    public const string CpuLimit = "divcon.scheduler.cpu.limit";

    /// <summary>
    /// Counter, <c>s</c>: time the cgroup limiting the process was throttled since the scheduler started
    /// (<c>cpu.stat</c>; summed over threads). Published only where the process has a cgroup cpu controller.
    /// </summary>
    public const string CpuThrottledTime = "divcon.scheduler.cpu.throttled.time";

    /// <summary>Counter, <c>{period}</c>: quota periods in which the cgroup was throttled since the scheduler started.</summary>
    public const string CpuThrottledPeriods = "divcon.scheduler.cpu.throttled.periods";

    /// <summary>UpDownCounter, <c>{task}</c>: tasks queued to a <see cref="WorkStealingTaskScheduler"/> and not yet started.</summary>
    public const string QueueLength = "divcon.scheduler.queue.length";

    /// <summary>Counter, <c>{task}</c>: tasks a <see cref="WorkStealingTaskScheduler"/>'s workers ran.</summary>
    public const string ExecutedTasks = "divcon.scheduler.executed_tasks";

    /// <summary>Counter, <c>{steal}</c>: successful steals, by <see cref="StealLocality"/>.</summary>
    public const string Steals = "divcon.scheduler.steals";

    /// <summary>Counter, <c>s</c>: time a <see cref="WorkStealingTaskScheduler"/>'s workers spent, by <see cref="WorkerState"/>.</summary>
    public const string WorkerTime = "divcon.scheduler.worker.time";

    /// <summary>UpDownCounter, <c>{core}</c>: worker slots the allocation in force gives a program.</summary>
    public const string ProgramCoreCount = "divcon.program.core.count";

    /// <summary>UpDownCounter, <c>{core}</c>: pool workers serving a program now (beside the cores it is assigned: a move waits for the task in hand).</summary>
    public const string ProgramServedCount = "divcon.program.served.count";

    /// <summary>Gauge, <c>1</c>: the scalability a program's policy is given (the user's, or the online estimate), tagged with its source.</summary>
    public const string ProgramScalability = "divcon.program.scalability.estimate";

    /// <summary>Gauge, <c>1</c>: the confidence of a program's online scalability estimate, in [0, 1] (0 without one).</summary>
    public const string ProgramScalabilityConfidence = "divcon.program.scalability.confidence";

    /// <summary>Tag: where a program's scalability came from (<c>Default</c>, <c>User</c>, <c>Online</c>).</summary>
    public const string ScalabilitySource = "divcon.program.scalability.source";

    /// <summary>UpDownCounter, <c>{task}</c>: a program's tasks queued and not yet started.</summary>
    public const string ProgramQueueLength = "divcon.program.queue.length";

    /// <summary>Counter, <c>{task}</c>: a program's tasks that ran.</summary>
    public const string ProgramExecutedTasks = "divcon.program.executed_tasks";

    /// <summary>Counter, <c>s</c>: time workers served a program, by <see cref="WorkerState"/>; the sum over states is its core-time.</summary>
    public const string ProgramWorkerTime = "divcon.program.worker.time";

    /// <summary>Counter, <c>{move}</c>: workers moved to a program.</summary>
    public const string ProgramMovesIn = "divcon.program.moves_in";

    /// <summary>Counter, <c>{move}</c>: worker moves of a <see cref="Multiprogramming.MultiProgramScheduler"/>, by <see cref="MoveReason"/> and <see cref="MoveTrigger"/>.</summary>
    public const string Moves = "divcon.scheduler.moves";

    /// <summary>Counter, <c>{allocation}</c>: policy results a <see cref="Multiprogramming.MultiProgramScheduler"/> rejected as invalid.</summary>
    public const string RejectedAllocations = "divcon.scheduler.rejected_allocations";

    /// <summary>Counter, <c>{worker}</c>: compensating workers started because every worker of a scheduler (or of a program) was stuck in a task while tasks were queued.</summary>
    public const string Compensations = "divcon.scheduler.compensations";

    /// <summary>Counter, <c>{task}</c>: tasks queued from outside after the scheduler was disposed (or their program removed); they ran on the .NET thread pool.</summary>
    public const string LateTasks = "divcon.scheduler.late_tasks";

    /// <summary>Attribute: the worker slot whose task was stuck when a compensating worker started.</summary>
    public const string StuckSlot = "divcon.worker.stuck_slot";

    /// <summary>Attribute: <c>work_stealing</c> or <c>multiprogram</c>.</summary>
    public const string SchedulerType = "divcon.scheduler.type";

    /// <summary>Attribute: the scheduler's id (<see cref="TaskScheduler.Id"/>, or <see cref="Multiprogramming.MultiProgramScheduler.Id"/>); unique per type.</summary>
    public const string SchedulerId = "divcon.scheduler.id";

    /// <summary>Attribute: <c>busy</c> (running a task) or <c>idle</c> (looking for one).</summary>
    public const string WorkerState = "divcon.worker.state";

    /// <summary>Attribute: <c>local</c> (victim in the thief's stealing group) or <c>remote</c>.</summary>
    public const string StealLocality = "divcon.steal.locality";

    /// <summary>Attribute: the program's name.</summary>
    public const string ProgramName = "divcon.program.name";

    /// <summary>Attribute: the program's id within its scheduler.</summary>
    public const string ProgramId = "divcon.program.id";

    /// <summary>Attribute: the policy's <see cref="Partitioning.AllocationReason"/> for a move.</summary>
    public const string MoveReason = "divcon.move.reason";

    /// <summary>Attribute: the <see cref="Multiprogramming.RepartitionTrigger"/> of a move.</summary>
    public const string MoveTrigger = "divcon.move.trigger";

    /// <summary>A meter for one scheduler, with the instruments every scheduler has: worker count, CPU limit, throttling.</summary>
    internal static Meter CreateSchedulerMeter(KeyValuePair<string, object?>[] tags, Func<int> workers, CpuBudget budget)
    {
        var meter = new Meter(MeterName, typeof(SchedulingTelemetry).Assembly.GetName().Version?.ToString());
        meter.CreateObservableUpDownCounter(WorkerCount, () => new Measurement<int>(workers(), tags), "{worker}", "Worker threads of the scheduler.");
        meter.CreateObservableUpDownCounter(CpuLimit, () => new Measurement<int>(budget.Cores, tags), "{cpu}", "The CPU budget the scheduler was sized by.");

        // Baseline at start, so the counters say what this scheduler's lifetime cost; no instruments without a cgroup.
        if (budget.ReadThrottling() is CpuThrottling start)
        {
            meter.CreateObservableCounter(CpuThrottledTime, () => Throttling(budget, start, tags, t => t.ThrottledTime.TotalSeconds), "s", "Time the process's cgroup was throttled by its CPU quota since the scheduler started.");
            meter.CreateObservableCounter(CpuThrottledPeriods, () => Throttling(budget, start, tags, t => t.ThrottledPeriods), "{period}", "Quota periods in which the process's cgroup was throttled since the scheduler started.");
        }

        return meter;
    }

    private static IEnumerable<Measurement<T>> Throttling<T>(CpuBudget budget, CpuThrottling start, KeyValuePair<string, object?>[] tags, Func<CpuThrottling, T> value)
        where T : struct
    {
        CpuThrottling? now = budget.ReadThrottling();
        if (now is null || now.Source != start.Source || now.Periods < start.Periods || now.ThrottledPeriods < start.ThrottledPeriods || now.ThrottledTime < start.ThrottledTime)
        {
            // The cgroup went away or was recreated: report nothing rather than a counter that goes backwards.
            return [];
        }

        return [new Measurement<T>(value(now - start), tags)];
    }
}
