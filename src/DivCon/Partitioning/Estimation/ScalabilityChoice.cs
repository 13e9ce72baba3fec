namespace DivCon.Partitioning.Estimation;

/// <summary>
/// The scalability a policy is given for one program, and where it came from (<see cref="Choose"/>: the user's
/// number or table wins; an online estimate is used once confident enough; otherwise the default).
/// </summary>
/// <param name="Scalability">For <see cref="ProgramLoad.Scalability"/>.</param>
/// <param name="Table">For <see cref="ProgramLoad.ScalabilityTable"/>; may be null.</param>
/// <param name="Source">Which of the three it is.</param>
public sealed record ScalabilityChoice(double Scalability, ScalabilityTable? Table, ScalabilitySource Source)
{
    /// <summary>
    /// Chooses: a user-given <paramref name="userScalability"/> or <paramref name="userTable"/> wins (a table alone
    /// gives its speedup at <paramref name="cores"/>); else the estimate when it has one with
    /// <see cref="ScalabilityEstimate.Confidence"/> ≥ <paramref name="minConfidence"/>, with <paramref name="estimatedTable"/>;
    /// else <paramref name="defaultScalability"/> and no table. The default minimum is 0 (any estimate): in a closed
    /// loop a gate starves the programs it does not trust yet, since the default (1.0, no speedup) gives them one core,
    /// where they can only be seen in probes; their estimates stay unconfident and their cores few.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A number is out of its range (scalabilities positive, confidence in [0, 1]).</exception>
    public static ScalabilityChoice Choose(
        double? userScalability,
        ScalabilityTable? userTable,
        in ScalabilityEstimate estimate,
        ScalabilityTable? estimatedTable,
        int cores,
        double defaultScalability = 1.0,
        double minConfidence = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        if (!(defaultScalability > 0) || double.IsInfinity(defaultScalability))
        {
            throw new ArgumentOutOfRangeException(nameof(defaultScalability), defaultScalability, "The default scalability must be positive and finite.");
        }

        if (!(minConfidence is >= 0 and <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(minConfidence), minConfidence, "The minimum confidence must be in [0, 1].");
        }

        if (userScalability is double given)
        {
            if (!(given > 0) || double.IsInfinity(given))
            {
                throw new ArgumentOutOfRangeException(nameof(userScalability), given, "A user-given scalability must be positive and finite.");
            }

            return new ScalabilityChoice(given, userTable, ScalabilitySource.User);
        }

        if (userTable is not null)
        {
            return new ScalabilityChoice(userTable.SpeedupAt(cores), userTable, ScalabilitySource.User);
        }

        if (estimate.HasEstimate && estimate.Confidence >= minConfidence)
        {
            return new ScalabilityChoice(estimate.Scalability, estimatedTable, ScalabilitySource.Online);
        }

        return new ScalabilityChoice(defaultScalability, null, ScalabilitySource.Default);
    }
}
