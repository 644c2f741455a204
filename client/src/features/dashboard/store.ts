import { create } from 'zustand';
import { routes, type Subscription } from '@alma/protocol';
import { call, errorText } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { subscriptionLimits, type LimitsResult } from '../../lib/limits.ts';

/** The dashboard's server data besides the user: the subscription and the plan's limits. */
interface DashboardState {
  subscription: Subscription | null;
  subscriptionError: string | null;
  limits: LimitsResult | null;
  loadSubscription: () => Promise<void>;
  loadLimits: (userId: string) => Promise<void>;
}

export const useDashboard = create<DashboardState>()((set) => ({
  subscription: null,
  subscriptionError: null,
  limits: null,
  loadSubscription: async () => {
    try {
      const { subscription } = await call(routes.payment.subscription, {});
      set({ subscription, subscriptionError: null });
    } catch (error) {
      set({ subscriptionError: errorText(error, i18n.t('errors.subscriptionLoad')) });
    }
  },
  loadLimits: async (userId) => {
    set({ limits: await subscriptionLimits.get(userId) });
  },
}));
