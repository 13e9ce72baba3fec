namespace DivCon.Harness.Cyclic;

/// <summary>
/// How <c>--repeat auto</c> sized the experiment: a pilot of <see cref="Pilot"/> invocations, the pooled spread of a
/// paired log difference between two schemes per metric (from the pilot's blocked ANOVA), the invocations that resolve
/// <see cref="Detect"/> with the planned power at α / m, and how many were run.
/// </summary>
/// <param name="Pilot">Invocations of the pilot.</param>
/// <param name="Detect">The relative difference planned for (0.05 = 5 %).</param>
/// <param name="Required">Per metric: the invocations needed (null: more than the cap, or the pilot could not tell).</param>
/// <param name="Planned">Invocations run in all: the largest requirement, at least the pilot, at most the cap.</param>
/// <param name="Capped">True when some metric needed more than the cap (or could not be planned): the run resolves less than asked.</param>
public sealed record InvocationSizing(int Pilot, double Detect, IReadOnlyDictionary<string, int?> Required, int Planned, bool Capped);
