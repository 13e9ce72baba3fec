using System.Diagnostics.Metrics;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

// Telemetry through System.Diagnostics.Metrics: a <see cref="Meter"/> named <see cref="MeterName"/> per scheduler,
// with the instruments every scheduler has (<see cref="SchedulingTelemetry"/>: worker count, CPU limit, throttling)
// and per-program ones. Per-program instruments are observable (read only when a listener collects, so they cost
// nothing otherwise) and tagged with the program's name and id; every measurement carries the scheduler's type and
// <see cref="Id"/>. Names and units follow OpenTelemetry's conventions (docs/telemetry.md has the table).
public sealed partial class MultiProgramScheduler
{
    /// <summary>The name of the meter (<see cref="SchedulingTelemetry.MeterName"/>).</summary>
    public const string MeterName = SchedulingTelemetry.MeterName;

    private readonly Meter _meter;
    private Counter<long>? _moves;
    private Counter<long>? _rejections;
    private Counter<long>? _compensationCounter;
    private Counter<long>? _lateTaskCounter;
    private long _telemetryErrors;
    private KeyValuePair<string, object?>[] _tags = [];

    private Meter CreateMeter()
    {
        _tags = [new(SchedulingTelemetry.SchedulerType, "multiprogram"), new(SchedulingTelemetry.SchedulerId, Id)];
        Meter meter = SchedulingTelemetry.CreateSchedulerMeter(_tags, () => WorkerCount, Budget);
        meter.CreateObservableUpDownCounter(SchedulingTelemetry.ProgramCoreCount, PerProgramCores, "{core}", "Worker slots the allocation in force gives the program.");
        meter.CreateObservableUpDownCounter(SchedulingTelemetry.ProgramServedCount, () => PerProgram(p => p.ServedWorkers), "{core}", "Pool workers serving the program now; below its core count while a move waits for a running task.");
        meter.CreateObservableGauge(SchedulingTelemetry.ProgramScalability, PerProgramScalability, "1", "The scalability the policy is given for the program (the user's, or the online estimate), tagged with its source.");
        meter.CreateObservableGauge(SchedulingTelemetry.ProgramScalabilityConfidence, () => PerProgram(p => p.ScalabilityState.Estimate.Confidence), "1", "Confidence of the program's online scalability estimate (0 without one).");
        meter.CreateObservableUpDownCounter(SchedulingTelemetry.ProgramQueueLength, () => PerProgram(p => p.AvailableTasks), "{task}", "Tasks queued for the program and not yet started.");
        meter.CreateObservableCounter(SchedulingTelemetry.ProgramExecutedTasks, () => PerProgram(p => p.GetStatistics().TasksExecuted), "{task}", "Tasks of the program that ran.");
        meter.CreateObservableCounter(SchedulingTelemetry.ProgramWorkerTime, PerProgramWorkerTime, "s", "Time workers served the program, running its tasks (busy) or looking for one (idle); the sum is its core-time.");
        meter.CreateObservableCounter(SchedulingTelemetry.ProgramMovesIn, () => PerProgram(p => p.MovesInTotal), "{move}", "Workers moved to the program.");
        _moves = meter.CreateCounter<long>(SchedulingTelemetry.Moves, "{move}", "Worker moves, tagged with the policy's reason and the trigger.");
        _rejections = meter.CreateCounter<long>(SchedulingTelemetry.RejectedAllocations, "{allocation}", "Policy results rejected as invalid.");
        _compensationCounter = meter.CreateCounter<long>(SchedulingTelemetry.Compensations, "{worker}", "Compensating workers started because a program's workers were stuck in tasks with tasks queued, tagged with the program.");
        _lateTaskCounter = meter.CreateCounter<long>(SchedulingTelemetry.LateTasks, "{task}", "Tasks queued from outside after their program was removed (or the scheduler disposed); they ran on the .NET thread pool.");
        return meter;
    }

    private IEnumerable<Measurement<T>> PerProgram<T>(Func<ProgramHandle, T> value)
        where T : struct
    {
        foreach (ProgramHandle p in Programs)
        {
            yield return new Measurement<T>(value(p), ProgramTags(p));
        }
    }

    // One allocation for every program of a collection: read program by program, a decision between two reads could
    // give a collection counts that sum above the pool (a listener saw 3 cores of 2).
    private IEnumerable<Measurement<int>> PerProgramCores()
    {
        AllocationSnapshot snapshot = _mover.Snapshot;
        foreach (ProgramHandle p in snapshot.Programs)
        {
            yield return new Measurement<int>(snapshot.CoresOf(p.Id), ProgramTags(p));
        }
    }

    private IEnumerable<Measurement<double>> PerProgramWorkerTime()
    {
        foreach (ProgramHandle p in Programs)
        {
            ProgramStatistics s = p.GetStatistics();
            yield return new Measurement<double>(Math.Max(0, (s.CoreTime - s.IdleTime).TotalSeconds), [.. ProgramTags(p), new(SchedulingTelemetry.WorkerState, "busy")]);
            yield return new Measurement<double>(s.IdleTime.TotalSeconds, [.. ProgramTags(p), new(SchedulingTelemetry.WorkerState, "idle")]);
        }
    }

    private IEnumerable<Measurement<double>> PerProgramScalability()
    {
        foreach (ProgramHandle p in Programs)
        {
            ProgramScalability s = p.ScalabilityState;
            yield return new Measurement<double>(s.Scalability, [.. ProgramTags(p), new(SchedulingTelemetry.ScalabilitySource, s.Source.ToString())]);
        }
    }

    private KeyValuePair<string, object?>[] ProgramTags(ProgramHandle p) =>
        [.. _tags, new(SchedulingTelemetry.ProgramName, p.Name), new(SchedulingTelemetry.ProgramId, p.Id)];

    /// <summary>
    /// Exceptions thrown by MeterListener callbacks while recording a measurement: caught, so that telemetry never
    /// leaves a repartitioning half done or kills a worker, and counted here.
    /// </summary>
    public long TelemetryErrors => Interlocked.Read(ref _telemetryErrors);

    // Counter.Add runs MeterListener callbacks synchronously, on the mover's or a worker's thread (see the header).
    private void SafeAdd(Counter<long>? counter, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        try
        {
            counter?.Add(1, tags);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            Interlocked.Increment(ref _telemetryErrors);
        }
    }

    /// <summary>A move, on the timeline and the meter (the mover's and the lender's path).</summary>
    internal void RecordMove(AllocationMove move)
    {
        Timeline.Record(move);
        SafeAdd(_moves, [.. _tags, new(SchedulingTelemetry.MoveReason, move.Reason.ToString()), new(SchedulingTelemetry.MoveTrigger, move.Trigger.ToString())]);
    }

    private void RecordRejection() => SafeAdd(_rejections, _tags);

    internal void RecordLateTask() => SafeAdd(_lateTaskCounter, _tags);

    // Pool owner callbacks (monitor thread / the compensating worker's thread): on the timeline and the meter.
    internal void RecordCompensation(WorkQueueSet set, Worker stuck, Worker compensating)
    {
        IQueueSetOwner? program = set.Owner;
        // Standing in for a worker of another set that the program is owed (BlockingMonitor.cs, owed not served).
        AllocationReason reason = stuck.IsCompensating || ReferenceEquals(stuck.ServingForReaders, set)
            ? AllocationReason.BlockingCompensation
            : AllocationReason.MoveCompensation;
        Timeline.Record(new AllocationMove(System.Diagnostics.Stopwatch.GetTimestamp(), compensating.Slot, null, null, program?.Id, reason, RepartitionTrigger.BlockingCompensation));
        SafeAdd(_compensationCounter, [.. _tags, new(SchedulingTelemetry.ProgramName, program?.Name), new(SchedulingTelemetry.StuckSlot, stuck.Slot)]);
    }

    internal void RecordCompensationEnded(WorkQueueSet set, Worker compensating)
        => Timeline.Record(new AllocationMove(System.Diagnostics.Stopwatch.GetTimestamp(), compensating.Slot, null, set.Owner?.Id, null, AllocationReason.CompensationEnded, RepartitionTrigger.BlockingCompensation));
}
