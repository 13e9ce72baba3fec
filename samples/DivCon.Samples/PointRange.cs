namespace DivCon.Samples;

/// <summary>The points [<see cref="Start"/>, <see cref="Start"/> + <see cref="Count"/>) of a Monte Carlo π subproblem.</summary>
/// <param name="Start">The index of the first point.</param>
/// <param name="Count">The number of points.</param>
public readonly record struct PointRange(long Start, long Count);
