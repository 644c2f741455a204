import { Navigate, type RouteObject } from 'react-router-dom';
import { LandingPage } from '../features/landing/LandingPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RegisterPage } from '../features/auth/RegisterPage.tsx';
import { AuthCallbackPage } from '../features/auth/AuthCallbackPage.tsx';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { OnboardingPage } from '../features/onboarding/OnboardingPage.tsx';
import { ChatPage } from '../features/chat/ChatPage.tsx';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';
import { TermsPage } from '../features/legal/TermsPage.tsx';
import { PrivacyPage } from '../features/legal/PrivacyPage.tsx';
import { ContactPage } from '../features/legal/ContactPage.tsx';
import { RequireAuth, RequireOnboarding } from './guards.tsx';

/** The route table of spec §2. */
export const appRoutes: RouteObject[] = [
  { path: '/', element: <LandingPage /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/auth/callback', element: <AuthCallbackPage /> },
  { path: '/terms', element: <TermsPage /> },
  { path: '/privacy', element: <PrivacyPage /> },
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/contact', element: <ContactPage /> },
  {
    element: <RequireAuth />,
    children: [
      { path: '/onboarding', element: <OnboardingPage /> },
      {
        element: <RequireOnboarding />,
        children: [
          { path: '/chat', element: <ChatPage /> },
          { path: '/dashboard', element: <DashboardPage /> },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
