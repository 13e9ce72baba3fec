namespace DivCon.Partitioning.Estimation;

/// <summary>Where the scalability a policy is given for a program came from.</summary>
public enum ScalabilitySource
{
    /// <summary>The default for a program nobody knows anything about yet (no usable estimate).</summary>
    Default,

    /// <summary>Given by the user (a number or a table): it always wins.</summary>
    User,

    /// <summary>Estimated online, with enough confidence.</summary>
    Online,
}
