import { CompatibleStrip } from './compatible-strip.tsx'
import { EncryptionSection } from './encryption-section.tsx'
import { FeatureCards } from './feature-cards.tsx'
import { FinalCta } from './final-cta.tsx'
import { HeroSection } from './hero-section.tsx'
import type { LandingAuthProps } from './landing-cta.ts'
import { ProblemSolution } from './problem-solution.tsx'
import { ProviderSection } from './provider-section.tsx'
import { QuickStart } from './quick-start.tsx'
import { WhySection } from './why-section.tsx'

/** The public home page: what it is, how it works, why, and a call to action. */
export function LandingPage(props: LandingAuthProps) {
  return (
    <>
      <HeroSection {...props} />
      <CompatibleStrip />
      <ProviderSection />
      <FeatureCards />
      <ProblemSolution />
      <EncryptionSection />
      <QuickStart />
      <WhySection />
      <FinalCta isAuthenticated={props.isAuthenticated} isLoading={props.isLoading} />
    </>
  )
}
