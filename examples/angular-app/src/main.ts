import { bootstrapApplication } from '@angular/platform-browser';
import { provideZonelessChangeDetection } from '@angular/core';
import 'esign-elements/identify';
import 'esign-elements/sign';
import { AppComponent } from './app/app.component';

bootstrapApplication(AppComponent, { providers: [provideZonelessChangeDetection()] }).catch((error: unknown) => console.error(error));
