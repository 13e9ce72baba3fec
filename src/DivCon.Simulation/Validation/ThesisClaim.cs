namespace DivCon.Simulation.Validation;

/// <summary>A speedup the thesis states.</summary>
/// <param name="Section">Where: the thesis section.</param>
/// <param name="Quote">The words of the text.</param>
/// <param name="Program">The program it is about.</param>
/// <param name="Cores">On how many cores.</param>
/// <param name="Speedup">The speedup (an efficiency times the cores when stated as one).</param>
/// <param name="Note">What the comparison assumes, or null.</param>
public sealed record ThesisClaim(string Section, string Quote, string Program, int Cores, double Speedup, string? Note);
