using System.Text.Json.Serialization;

namespace DivCon.Metrics.Statistics;

/// <summary>The table of one <see cref="BlockedAnova.Analyze"/>.</summary>
/// <param name="Treatments">k.</param>
/// <param name="Blocks">n.</param>
/// <param name="Table">Treatment, block, error and total lines, in that order.</param>
public sealed record BlockedAnovaResult(int Treatments, int Blocks, IReadOnlyList<AnovaSource> Table)
{
    /// <summary>The treatment line (its F tests the treatments against the error left after the blocks).</summary>
    [JsonIgnore]
    public AnovaSource Treatment => Table[0];

    /// <summary>The block line (its percent of variation is how much of the spread the blocks explain).</summary>
    [JsonIgnore]
    public AnovaSource Block => Table[1];

    /// <summary>The error line; its mean square σ̂² is the noise left once treatments and blocks are accounted for.</summary>
    [JsonIgnore]
    public AnovaSource Error => Table[2];

    /// <summary>
    /// √(2 · MS_error): the standard deviation of a difference between two treatments in one block, the pooled
    /// estimate behind power and sample-size planning.
    /// </summary>
    [JsonIgnore]
    public double PairedDifferenceSd => Math.Sqrt(2 * Error.MeanSquare!.Value);
}
