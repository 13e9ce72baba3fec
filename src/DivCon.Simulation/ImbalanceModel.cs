namespace DivCon.Simulation;

/// <summary>
/// Random split fractions: a split into b children draws b weights uniformly from [MinFraction, MaxFraction] and
/// normalises them (for b = 2: the first child gets a fraction uniform in that range when it is symmetric about ½).
/// </summary>
/// <param name="MinFraction">Smallest weight, in (0, 1).</param>
/// <param name="MaxFraction">Largest weight, in [MinFraction, 1).</param>
public sealed record ImbalanceModel(double MinFraction, double MaxFraction);
