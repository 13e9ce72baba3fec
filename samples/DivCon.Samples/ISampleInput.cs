namespace DivCon.Samples;

/// <summary>
/// A sample program whose input can be made ahead of the first run, outside any timing (what
/// <see cref="IDivConSample.Initialize"/> is for the skeleton samples), for programs that are not on the D&amp;C skeleton.
/// </summary>
public interface ISampleInput
{
    /// <summary>Whether the input data has been made.</summary>
    bool IsInitialized { get; }

    /// <summary>Makes the input data if not made yet (otherwise the first run makes it). Not thread-safe.</summary>
    void Initialize();
}
