using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.Globalization;
using DivCon.Scheduling;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>The standalone scheduler's instruments, read with a <see cref="MeterListener"/> as a collector would.</summary>
public sealed class SchedulerMetricsTests
{
    private sealed record Reading(string Instrument, string? Unit, double Value, IReadOnlyDictionary<string, object?> Tags);

    [Fact]
    public void Work_stealing_scheduler_publishes_its_counters_under_the_conventional_names()
    {
        using var scheduler = new WorkStealingTaskScheduler(2);
        var readings = new ConcurrentQueue<Reading>();
        var completed = new ConcurrentQueue<string>();
        using var listener = Listen(scheduler.Id, readings, completed);

        const int Tasks = 200;
        Wait.For(Task.WhenAll(Enumerable.Range(0, Tasks).Select(_ => Task.Factory.StartNew(() => Thread.SpinWait(1000), CancellationToken.None, TaskCreationOptions.None, scheduler))));
        Wait.Until(() => scheduler.GetStatistics().TasksExecuted >= Tasks, "the workers have counted every task");
        listener.RecordObservableInstruments();

        SchedulerStatistics statistics = scheduler.GetStatistics();
        double Last(string name, string? key = null, string? value = null) =>
            readings.Last(r => r.Instrument == name && (key is null || Equals(r.Tags[key], value))).Value;

        Assert.Equal(2, Last(SchedulingTelemetry.WorkerCount));
        Assert.Equal(scheduler.Budget.Cores, Last(SchedulingTelemetry.CpuLimit));
        Assert.Equal(Tasks, Last(SchedulingTelemetry.ExecutedTasks));
        Assert.Equal(0, Last(SchedulingTelemetry.QueueLength));
        Assert.Equal(
            statistics.LocalSteals + statistics.RemoteSteals,
            Last(SchedulingTelemetry.Steals, SchedulingTelemetry.StealLocality, "local") + Last(SchedulingTelemetry.Steals, SchedulingTelemetry.StealLocality, "remote"));
        Assert.True(Last(SchedulingTelemetry.WorkerTime, SchedulingTelemetry.WorkerState, "busy") > 0);
        Assert.True(Last(SchedulingTelemetry.WorkerTime, SchedulingTelemetry.WorkerState, "idle") >= 0);

        // Units and attributes as docs/telemetry.md lists them.
        Assert.All(readings, r => Assert.Equal("work_stealing", r.Tags[SchedulingTelemetry.SchedulerType]));
        Assert.Equal("{task}", readings.First(r => r.Instrument == SchedulingTelemetry.ExecutedTasks).Unit);
        Assert.Equal("s", readings.First(r => r.Instrument == SchedulingTelemetry.WorkerTime).Unit);
        Assert.Equal("{worker}", readings.First(r => r.Instrument == SchedulingTelemetry.WorkerCount).Unit);
        Assert.Equal("{cpu}", readings.First(r => r.Instrument == SchedulingTelemetry.CpuLimit).Unit);

        // A window reset must not make the counters go backwards.
        scheduler.ResetStatistics();
        readings.Clear();
        listener.RecordObservableInstruments();
        Assert.Equal(Tasks, Last(SchedulingTelemetry.ExecutedTasks));

        scheduler.Dispose();
        Assert.Contains(SchedulingTelemetry.ExecutedTasks, completed);
    }

    [Fact]
    public void Throttling_instruments_appear_exactly_where_the_process_has_cgroup_counters()
    {
        using var scheduler = new WorkStealingTaskScheduler(1);
        var readings = new ConcurrentQueue<Reading>();
        using var listener = Listen(scheduler.Id, readings, new ConcurrentQueue<string>());
        listener.RecordObservableInstruments();

        bool hasCounters = scheduler.Budget.ReadThrottling() is not null;
        Assert.Equal(hasCounters, readings.Any(r => r.Instrument == SchedulingTelemetry.CpuThrottledTime));
        Assert.Equal(hasCounters, readings.Any(r => r.Instrument == SchedulingTelemetry.CpuThrottledPeriods));
        Assert.All(readings.Where(r => r.Instrument.StartsWith("divcon.scheduler.cpu.throttled", StringComparison.Ordinal)), r => Assert.True(r.Value >= 0));
    }

    private static MeterListener Listen(int schedulerId, ConcurrentQueue<Reading> readings, ConcurrentQueue<string> completed)
    {
        var ours = new ConcurrentDictionary<Instrument, bool>(); // instruments seen measuring this scheduler
        var listener = new MeterListener
        {
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == SchedulingTelemetry.MeterName)
                {
                    l.EnableMeasurementEvents(instrument);
                }
            },
            MeasurementsCompleted = (instrument, _) =>
            {
                if (ours.ContainsKey(instrument))
                {
                    completed.Enqueue(instrument.Name); // this scheduler's meter was disposed
                }
            },
        };

        void OnMeasurement<T>(Instrument instrument, T value, ReadOnlySpan<KeyValuePair<string, object?>> tags, object? state)
        {
            var map = new Dictionary<string, object?>();
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                map[tag.Key] = tag.Value;
            }

            // Other tests' schedulers publish on the same meter name: keep only this one's.
            if (Equals(map.GetValueOrDefault(SchedulingTelemetry.SchedulerId), schedulerId) && Equals(map.GetValueOrDefault(SchedulingTelemetry.SchedulerType), "work_stealing"))
            {
                ours.TryAdd(instrument, true);
                readings.Enqueue(new Reading(instrument.Name, instrument.Unit, Convert.ToDouble(value, CultureInfo.InvariantCulture), map));
            }
        }

        listener.SetMeasurementEventCallback<int>(OnMeasurement);
        listener.SetMeasurementEventCallback<long>(OnMeasurement);
        listener.SetMeasurementEventCallback<double>(OnMeasurement);
        listener.Start();
        return listener;
    }
}
