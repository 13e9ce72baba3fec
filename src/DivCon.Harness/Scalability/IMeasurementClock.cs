using System.Diagnostics;

namespace DivCon.Harness.Scalability;

/// <summary>
/// A monotonic clock for timing runs. The real one reads <see cref="Stopwatch"/>; tests pass a fake whose time
/// advances only when a fake program says so, so no test depends on real timing.
/// </summary>
public interface IMeasurementClock
{
    /// <summary>Time since an arbitrary fixed origin; never decreases.</summary>
    TimeSpan Now { get; }
}

/// <summary>The real clock: <see cref="Stopwatch.GetTimestamp"/>.</summary>
public sealed class StopwatchMeasurementClock : IMeasurementClock
{
    /// <summary>The one instance.</summary>
    public static StopwatchMeasurementClock Instance { get; } = new();

    private StopwatchMeasurementClock()
    {
    }

    /// <inheritdoc/>
    public TimeSpan Now => Stopwatch.GetElapsedTime(0);
}
