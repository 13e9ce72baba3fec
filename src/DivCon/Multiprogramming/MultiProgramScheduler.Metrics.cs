using System.Diagnostics.Metrics;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// Telemetry through System.Diagnostics.Metrics: a <see cref="Meter"/> named <see cref="MeterName"/> per scheduler,
/// with the instruments every scheduler has (<see cref="SchedulingTelemetry"/>: worker count, CPU limit, throttling)
/// and per-program ones. Per-program instruments are observable (read only when a listener collects, so they cost
/// nothing otherwise) and tagged with the program's name and id; every measurement carries the scheduler's type and
/// <see cref="Id"/>. Names and units follow OpenTelemetry's conventions (docs/telemetry.md has the table).
/// </summary>
public sealed partial class MultiProgramScheduler
{
    /// <summary>The name of the meter (<see cref="SchedulingTelemetry.MeterName"/>).</summary>
    public const string MeterName = SchedulingTelemetry.MeterName;

    private readonly Meter _meter;
    private Counter<long>? _moves;
    private Counter<long>? _rejections;
    private KeyValuePair<string, object?>[] _tags = [];

    private Meter CreateMeter()
    {
        _tags = [new(SchedulingTelemetry.SchedulerType, "multiprogram"), new(SchedulingTelemetry.SchedulerId, Id)];
        Meter meter = SchedulingTelemetry.CreateSchedulerMeter(_tags, () => WorkerCount, Budget);
        meter.CreateObservableUpDownCounter(SchedulingTelemetry.ProgramCoreCount, () => PerProgram(p => CoresOf(p)), "{core}", "Worker slots the allocation in force gives the program.");
        meter.CreateObservableUpDownCounter(SchedulingTelemetry.ProgramQueueLength, () => PerProgram(p => p.AvailableTasks), "{task}", "Tasks queued for the program and not yet started.");
        meter.CreateObservableCounter(SchedulingTelemetry.ProgramExecutedTasks, () => PerProgram(p => p.GetStatistics().TasksExecuted), "{task}", "Tasks of the program that ran.");
        meter.CreateObservableCounter(SchedulingTelemetry.ProgramWorkerTime, PerProgramWorkerTime, "s", "Time workers served the program, running its tasks (busy) or looking for one (idle); the sum is its core-time.");
        meter.CreateObservableCounter(SchedulingTelemetry.ProgramMovesIn, () => PerProgram(p => p.MovesInTotal), "{move}", "Workers moved to the program.");
        _moves = meter.CreateCounter<long>(SchedulingTelemetry.Moves, "{move}", "Worker moves, tagged with the policy's reason and the trigger.");
        _rejections = meter.CreateCounter<long>(SchedulingTelemetry.RejectedAllocations, "{allocation}", "Policy results rejected as invalid.");
        return meter;
    }

    private IEnumerable<Measurement<T>> PerProgram<T>(Func<ProgramHandle, T> value)
        where T : struct
    {
        foreach (ProgramHandle p in _applied.Programs)
        {
            yield return new Measurement<T>(value(p), ProgramTags(p));
        }
    }

    private IEnumerable<Measurement<double>> PerProgramWorkerTime()
    {
        foreach (ProgramHandle p in _applied.Programs)
        {
            ProgramStatistics s = p.GetStatistics();
            yield return new Measurement<double>(Math.Max(0, (s.CoreTime - s.IdleTime).TotalSeconds), [.. ProgramTags(p), new(SchedulingTelemetry.WorkerState, "busy")]);
            yield return new Measurement<double>(s.IdleTime.TotalSeconds, [.. ProgramTags(p), new(SchedulingTelemetry.WorkerState, "idle")]);
        }
    }

    private KeyValuePair<string, object?>[] ProgramTags(ProgramHandle p) =>
        [.. _tags, new(SchedulingTelemetry.ProgramName, p.Name), new(SchedulingTelemetry.ProgramId, p.Id)];

    private void RecordMove(AllocationReason reason, RepartitionTrigger trigger)
        => _moves?.Add(1, [.. _tags, new(SchedulingTelemetry.MoveReason, reason.ToString()), new(SchedulingTelemetry.MoveTrigger, trigger.ToString())]);

    private void RecordRejection() => _rejections?.Add(1, _tags);
}
