using DivCon.Metrics;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// How many invocations to run: a fixed number (<c>--repeat N</c>), or enough to resolve a relative difference
/// (<c>--repeat auto --detect 5%</c>): a pilot, then as many as its noise says are needed, within a cap.
/// </summary>
/// <param name="Fixed">The number of invocations, when fixed; ignored when <paramref name="Detect"/> is set.</param>
/// <param name="Detect">The relative difference to resolve (0.05 = 5 %), or null for a fixed number.</param>
/// <param name="Pilot">Invocations of the pilot (at least 2: the noise between schemes is estimated from it).</param>
/// <param name="Max">The most invocations auto sizing may run.</param>
public sealed record InvocationCount(int Fixed, double? Detect = null, int Pilot = InvocationCount.DefaultPilot, int Max = InvocationCount.DefaultMax)
{
    /// <summary>Default pilot size of <c>--repeat auto</c>.</summary>
    public const int DefaultPilot = 3;

    /// <summary>Default cap of <c>--repeat auto</c>.</summary>
    public const int DefaultMax = 30;

    /// <summary>Whether the count is chosen from a pilot.</summary>
    public bool IsAuto => Detect is not null;

    /// <summary>Every problem with the count (one line each); empty when none.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        problems.AddIf(!IsAuto && Fixed < 1, $"the number of invocations must be at least 1; got {Fixed}.");
        problems.AddIf(IsAuto && !(Detect > 0 && Detect < 1), $"the difference to detect must lie between 0 and 100 %; got {Detect:P1}.");
        problems.AddIf(IsAuto && Pilot < 2, $"the pilot needs at least 2 invocations; got {Pilot}.");
        problems.AddIf(IsAuto && Max < Pilot, $"the cap ({Max}) must be at least the pilot ({Pilot}).");
        return problems;
    }
}
