namespace DivCon.Tests.Infrastructure;

/// <summary>
/// A long stress or experiment test: skipped in the default <c>dotnet test</c> run (which keeps a short version of
/// each), run with <c>DIVCON_STRESS=1 dotnet test --filter Category=Stress</c>. Mark the test with
/// <c>[Trait("Category", "Stress")]</c> as well so the filter finds it.
/// </summary>
public sealed class StressFactAttribute : FactAttribute
{
    public const string EnvironmentVariable = "DIVCON_STRESS";

    public StressFactAttribute()
    {
        if (!IsEnabled)
        {
            Skip = $"Stress test: set {EnvironmentVariable}=1 to run it.";
        }
    }

    public static bool IsEnabled => Environment.GetEnvironmentVariable(EnvironmentVariable) == "1";
}

/// <summary>The <see cref="TheoryAttribute"/> counterpart of <see cref="StressFactAttribute"/>.</summary>
public sealed class StressTheoryAttribute : TheoryAttribute
{
    public StressTheoryAttribute()
    {
        if (!StressFactAttribute.IsEnabled)
        {
            Skip = $"Stress test: set {StressFactAttribute.EnvironmentVariable}=1 to run it.";
        }
    }
}
