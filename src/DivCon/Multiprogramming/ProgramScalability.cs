using DivCon.Partitioning.Estimation;

namespace DivCon.Multiprogramming;

/// <summary>
/// A program's scalability as its policy saw it at the last repartitioning, with the online estimate behind it
/// (docs/online-scalability.md): published as one immutable object per periodic tick.
/// </summary>
/// <param name="Scalability">What the policy was given (<see cref="Partitioning.ProgramLoad.Scalability"/>).</param>
/// <param name="Source">Where it came from: the user, the online estimate, or the default (1, no estimate yet).</param>
/// <param name="Estimate">The online estimate and its confidence (observed for display even when the user's number wins); no estimate when estimation is off.</param>
/// <param name="Probing">Whether the program is being probed at another core count this tick.</param>
public sealed record ProgramScalability(double Scalability, ScalabilitySource Source, ScalabilityEstimate Estimate, bool Probing);
