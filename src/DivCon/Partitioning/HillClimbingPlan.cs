namespace DivCon.Partitioning;

/// <summary>Hill climbing from the proportional allocation, with every accepted move (<see cref="HillClimbingPolicy"/>).</summary>
/// <param name="Start">The proportional (scalability-share) allocation the search starts from.</param>
/// <param name="StartAntt">Predicted ANTT of the start (infinite when some program holds no core).</param>
/// <param name="Moves">The accepted moves, each lowering the predicted ANTT.</param>
/// <param name="Final">The allocation the search ended at.</param>
/// <param name="FinalAntt">Its predicted ANTT: never above <paramref name="StartAntt"/>.</param>
public sealed record HillClimbingPlan(
    ScalabilityPlan Start,
    double StartAntt,
    IReadOnlyList<HillClimbingMove> Moves,
    IReadOnlyList<int> Final,
    double FinalAntt);
