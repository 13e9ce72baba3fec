using System.Diagnostics.Metrics;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// Telemetry through System.Diagnostics.Metrics: a <see cref="Meter"/> named <see cref="MeterName"/> per scheduler
/// (visible to <c>dotnet-counters monitor --counters DivCon.Scheduling</c> and to an in-process MeterListener).
/// Per-program instruments are observable (read only when a listener collects, so they cost nothing otherwise) and
/// tagged with the program's name and id.
/// </summary>
public sealed partial class MultiProgramScheduler
{
    /// <summary>The name of the meter.</summary>
    public const string MeterName = "DivCon.Scheduling";

    private readonly Meter _meter;
    private Counter<long>? _moves;
    private Counter<long>? _rejections;
    private Counter<long>? _compensationCounter;
    private Counter<long>? _lateTaskCounter;
    private long _telemetryErrors;

    private Meter CreateMeter()
    {
        var meter = new Meter(MeterName, typeof(MultiProgramScheduler).Assembly.GetName().Version?.ToString());
        meter.CreateObservableGauge("divcon.program.allocated_cores", () => PerProgram(p => CoresOf(p)), "{core}", "Worker slots the allocation in force gives the program.");
        meter.CreateObservableGauge("divcon.program.available_tasks", () => PerProgram(p => p.AvailableTasks), "{task}", "Tasks queued for the program and not yet started.");
        meter.CreateObservableCounter("divcon.program.tasks_executed", () => PerProgram(p => p.GetStatistics().TasksExecuted), "{task}", "Tasks of the program that ran.");
        meter.CreateObservableCounter("divcon.program.idle_time", () => PerProgram(p => p.GetStatistics().IdleTime.TotalSeconds), "s", "Time the program's workers spent without one of its tasks.");
        meter.CreateObservableCounter("divcon.program.core_time", () => PerProgram(p => p.GetStatistics().CoreTime.TotalSeconds), "s", "Core-time held: time workers served the program.");
        meter.CreateObservableCounter("divcon.program.moves_in", () => PerProgram(p => p.MovesInTotal), "{move}", "Workers moved to the program.");
        _moves = meter.CreateCounter<long>("divcon.scheduler.moves", "{move}", "Worker moves, tagged with the policy's reason and the trigger.");
        _rejections = meter.CreateCounter<long>("divcon.scheduler.rejected_allocations", "{allocation}", "Policy results rejected as invalid.");
        _compensationCounter = meter.CreateCounter<long>("divcon.scheduler.compensations", "{worker}", "Compensating workers started because a program's workers were stuck in tasks with tasks queued, tagged with the program.");
        _lateTaskCounter = meter.CreateCounter<long>("divcon.scheduler.late_tasks", "{task}", "Tasks queued from outside after their program was removed (or the scheduler disposed); they ran on the .NET thread pool.");
        return meter;
    }

    /// <summary>
    /// Exceptions thrown by MeterListener callbacks while recording a measurement: caught, so that telemetry never
    /// leaves a repartitioning half done or kills a worker, and counted here.
    /// </summary>
    public long TelemetryErrors => Interlocked.Read(ref _telemetryErrors);

    // Counter.Add runs MeterListener callbacks synchronously, on the mover's or a worker's thread (see the header).
    private void SafeAdd(Counter<long>? counter, KeyValuePair<string, object?> tag1, KeyValuePair<string, object?> tag2)
    {
        try
        {
            counter?.Add(1, tag1, tag2);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            Interlocked.Increment(ref _telemetryErrors);
        }
    }

    private IEnumerable<Measurement<T>> PerProgram<T>(Func<ProgramHandle, T> value)
        where T : struct
    {
        foreach (ProgramHandle p in _applied.Programs)
        {
            yield return new Measurement<T>(value(p), new KeyValuePair<string, object?>("program", p.Name), new KeyValuePair<string, object?>("program.id", p.Id));
        }
    }

    private void RecordMove(AllocationReason reason, RepartitionTrigger trigger)
        => SafeAdd(_moves, new KeyValuePair<string, object?>("reason", reason.ToString()), new KeyValuePair<string, object?>("trigger", trigger.ToString()));

    private void RecordRejection() => SafeAdd(_rejections, default, default);

    private void RecordLateTask() => SafeAdd(_lateTaskCounter, default, default);

    // Pool callbacks (monitor thread / the compensating worker's thread): on the timeline and the meter.
    private void RecordCompensation(WorkQueueSet set, Worker stuck, Worker compensating)
    {
        var program = set.Tag as ProgramHandle;
        Timeline.Record(new AllocationMove(System.Diagnostics.Stopwatch.GetTimestamp(), compensating.Slot, null, null, program?.Id, AllocationReason.BlockingCompensation, RepartitionTrigger.BlockingCompensation));
        SafeAdd(_compensationCounter, new KeyValuePair<string, object?>("program", program?.Name), new KeyValuePair<string, object?>("stuck.slot", stuck.Slot));
    }

    private void RecordCompensationEnded(WorkQueueSet set, Worker compensating)
    {
        var program = set.Tag as ProgramHandle;
        Timeline.Record(new AllocationMove(System.Diagnostics.Stopwatch.GetTimestamp(), compensating.Slot, null, program?.Id, null, AllocationReason.CompensationEnded, RepartitionTrigger.BlockingCompensation));
    }
}
