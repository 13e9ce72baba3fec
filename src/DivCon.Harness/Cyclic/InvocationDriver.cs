using System.Globalization;
using DivCon.Harness.Progress;
using DivCon.Metrics;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Runs a cyclic test as independent invocations, one after another, each through the <see cref="IInvocationLauncher"/>
/// (a fresh process, in the CLI), and collects their raw times in order. With a fixed count it runs that many; with
/// <c>auto</c> it runs a pilot, asks the analysis how many invocations the pilot's noise needs to resolve the planned
/// difference (<see cref="MetricInference.InvocationsToDetect"/>, the largest over the compared metrics), and runs the
/// rest, never more than the cap (Kalibera and Jones 2013: size the experiment from an initial one). One invocation
/// failing abandons the test: no partial result.
/// </summary>
/// <param name="launcher">Starts each invocation.</param>
/// <param name="progress">Where progress lines go (none: nowhere).</param>
public sealed class InvocationDriver(IInvocationLauncher launcher, IRunProgress? progress = null)
{
    private readonly IInvocationLauncher _launcher = launcher ?? throw new ArgumentNullException(nameof(launcher));
    private readonly IRunProgress _progress = progress ?? LineProgress.None;

    /// <summary>
    /// Runs the invocations <paramref name="count"/> asks for; <paramref name="infer"/> analyzes the pilot (auto only).
    /// Returns them in order, and how auto sizing decided (null for a fixed count).
    /// </summary>
    /// <exception cref="ArgumentException">The count is invalid.</exception>
    public async Task<(IReadOnlyList<CyclicInvocation> Invocations, InvocationSizing? Sizing)> RunAsync(
        InvocationCount count, Func<IReadOnlyList<CyclicInvocation>, IReadOnlyList<MetricInference>> infer, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(count);
        ArgumentNullException.ThrowIfNull(infer);
        IReadOnlyList<string> problems = count.Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(" ", problems), nameof(count));
        }

        var invocations = new List<CyclicInvocation>();
        int planned = count.IsAuto ? count.Pilot : count.Fixed;
        await RunUpToAsync(invocations, planned, cancellationToken);
        if (!count.IsAuto)
        {
            return (invocations, null);
        }

        InvocationSizing sizing = Size(count, infer(invocations));
        _progress.Line(string.Create(CultureInfo.InvariantCulture,
            $"pilot of {count.Pilot}: to resolve {count.Detect:0.#%} differences, {string.Join(", ", sizing.Required.Select(kv => $"{kv.Key.ToUpperInvariant()} needs {(kv.Value is int v ? v.ToString(CultureInfo.InvariantCulture) : $"more than {count.Max}")}"))}; running {sizing.Planned} in all{(sizing.Capped ? $" (the cap, --max-repeat {count.Max})" : string.Empty)}."));
        await RunUpToAsync(invocations, sizing.Planned, cancellationToken);
        return (invocations, sizing);
    }

    /// <summary>
    /// The auto-sizing decision from the pilot's inference: the most any compared metric needs, at least the pilot,
    /// at most the cap; capped when a metric needs more than the cap or the pilot could not estimate its noise.
    /// </summary>
    public static InvocationSizing Size(InvocationCount count, IReadOnlyList<MetricInference> pilot)
    {
        ArgumentNullException.ThrowIfNull(count);
        ArgumentNullException.ThrowIfNull(pilot);
        if (count.Detect is not double detect)
        {
            throw new ArgumentException("Only an auto count is sized.", nameof(count));
        }

        var required = pilot.ToDictionary(m => m.Metric, m => m.InvocationsToDetect is int n && n <= count.Max ? n : (int?)null);
        bool capped = required.Count == 0 || required.Values.Any(v => v is null);
        int planned = capped ? count.Max : Math.Max(count.Pilot, required.Values.Max()!.Value);
        return new InvocationSizing(count.Pilot, detect, required, Math.Min(planned, count.Max), capped);
    }

    private async Task RunUpToAsync(List<CyclicInvocation> invocations, int total, CancellationToken cancellationToken)
    {
        while (invocations.Count < total)
        {
            cancellationToken.ThrowIfCancellationRequested();
            int k = invocations.Count + 1;
            _progress.Line(string.Create(CultureInfo.InvariantCulture, $"invocation {k}/{total}: starting"));
            CyclicInvocation invocation = await _launcher.RunAsync(k, total, _progress, cancellationToken);
            if (invocation.Invocation != k)
            {
                throw new InvalidOperationException($"The launcher returned invocation {invocation.Invocation} when {k} was asked for.");
            }

            invocations.Add(invocation);
            _progress.Line(string.Create(CultureInfo.InvariantCulture,
                $"invocation {k}/{total}: done in {invocation.ElapsedSeconds:0.0} s (process {invocation.ProcessId}; scheme order {string.Join(", ", invocation.SchemeOrder)})"));
        }
    }
}
