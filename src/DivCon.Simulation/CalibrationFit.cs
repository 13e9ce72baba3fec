namespace DivCon.Simulation;

/// <summary>A model fitted to a factored measurement (<see cref="ModelCalibrator.Fit"/>).</summary>
/// <param name="Model">The calibrated model; <see cref="ProgramModel.FittedTo"/> holds the numbers.</param>
/// <param name="Note">Why the memory intensity was not fitted, or null.</param>
public sealed record CalibrationFit(ProgramModel Model, string? Note);
