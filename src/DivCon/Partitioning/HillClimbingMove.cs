namespace DivCon.Partitioning;

/// <summary>One accepted hill-climbing move: a core from one program to another, and the predicted ANTT after it.</summary>
/// <param name="From">Index of the program that gave a core.</param>
/// <param name="To">Index of the program that received it.</param>
/// <param name="PredictedAntt">Predicted ANTT of the allocation after the move (lower than before it).</param>
public readonly record struct HillClimbingMove(int From, int To, double PredictedAntt);
